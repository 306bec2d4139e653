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

/** A PlaceMint client id as the CRM copy keys it, without the capitals and spaces of hand typing. */
const copyKey = (id: string): string => id.trim().toLowerCase();

/**
 * Client accounts. PlaceMint is the authority on whether a client may be invoiced, so every
 * account's status is PlaceMint's, read whole at every run. The CRM's weekly copy is stale by
 * design (its `taken_at` does not tell which PlaceMint changes it already holds) and is used
 * only for what PlaceMint does not keep: the billing contact.
 */
export async function loadAccounts(client: PlaceMintClient): Promise<Map<string, Account>> {
  const snapshot = JSON.parse(readFileSync(join(import.meta.dirname, "..", "input", "accounts-snapshot.json"), "utf8")) as Snapshot;
  // Account managers type the PlaceMint id into the CRM by hand: a few carry capitals or spaces.
  const contacts = new Map(snapshot.clients.map((c) => [copyKey(c.id), c.billing_contact]));
  const live = await client.list<{ id: string; account_status: string; deleted: boolean }>("/v2/clients");
  return new Map(live.map((c) => [c.id, { id: c.id, account_status: c.account_status, billing_contact: contacts.get(copyKey(c.id)) ?? null, deleted: c.deleted }]));
}
