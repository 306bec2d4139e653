import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PlaceMintClient } from "./placemint.ts";

/** A client account as the extract needs it. */
export interface Account {
  id: string;
  account_status: string;
  billing_contact: string | null;
  deleted: boolean;
}

interface Snapshot {
  taken_at: string;
  clients: { id: string; account_status: string; billing_contact: string }[];
}

/** The CRM copy, caught up with every account PlaceMint changed since the copy's `taken_at` (the handover's way). */
export async function loadAccounts(client: PlaceMintClient): Promise<Map<string, Account>> {
  const snapshot = JSON.parse(readFileSync(join(import.meta.dirname, "..", "input", "accounts-snapshot.json"), "utf8")) as Snapshot;
  const accounts = new Map<string, Account>(snapshot.clients.map((c) => [c.id, { id: c.id, account_status: c.account_status, billing_contact: c.billing_contact, deleted: false }]));
  for (const c of await client.list<{ id: string; account_status: string; deleted: boolean }>("/v2/clients", { modified_since: snapshot.taken_at })) {
    accounts.set(c.id, { id: c.id, account_status: c.account_status, billing_contact: accounts.get(c.id)?.billing_contact ?? null, deleted: c.deleted });
  }
  return accounts;
}
