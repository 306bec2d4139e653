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

/**
 * Client accounts: the CRM's weekly copy, caught up with the accounts PlaceMint changed since
 * the copy was taken.
 */
export async function loadAccounts(client: PlaceMintClient): Promise<Map<string, Account>> {
  const snapshot = JSON.parse(readFileSync(join(import.meta.dirname, "..", "input", "accounts-snapshot.json"), "utf8")) as Snapshot;
  const accounts = new Map<string, Account>(snapshot.clients.map((c) => [c.id, { id: c.id, account_status: c.account_status, billing_contact: c.billing_contact, deleted: false }]));
  const changed = await client.list<{ id: string; account_status: string; deleted: boolean }>("/v2/clients", { modified_since: snapshot.taken_at });
  for (const c of changed) {
    const have = accounts.get(c.id);
    accounts.set(c.id, { id: c.id, account_status: c.account_status, billing_contact: have?.billing_contact ?? null, deleted: c.deleted });
  }
  return accounts;
}
