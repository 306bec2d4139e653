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
  clients: { id: string; billing_contact: string }[];
}

/**
 * Client accounts, each read from PlaceMint by id at the moment the extract needs it: the
 * CRM copy's statuses are never trusted, its billing contacts are the only ones there are.
 */
export async function loadAccounts(client: PlaceMintClient, ids: string[]): Promise<Map<string, Account>> {
  const snapshot = JSON.parse(readFileSync(join(import.meta.dirname, "..", "input", "accounts-snapshot.json"), "utf8")) as Snapshot;
  // The copy's ids are typed in by hand: match them whatever their case and surrounding spaces.
  const contacts = new Map(snapshot.clients.map((c) => [c.id.trim().toUpperCase(), c.billing_contact]));
  const out = new Map<string, Account>();
  for (const id of [...new Set(ids)].sort()) {
    const c = await client.get<{ id: string; account_status: string; deleted: boolean }>(`/v2/clients/${encodeURIComponent(id)}`);
    out.set(id, { id, account_status: c.account_status, billing_contact: contacts.get(id.toUpperCase()) ?? null, deleted: c.deleted });
  }
  return out;
}
