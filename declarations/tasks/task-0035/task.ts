import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import snapshot from "./repo/input/accounts-snapshot.json" with { type: "json" };

const ROLE = "book";
const EXTRACT = "book_extract.json";

/**
 * Faults of the trial runs on the merged tenant (declared in declarations/vendors/placemint.ts):
 * the third page of placements answers 502 once, the quota closes early for a burst, every
 * token is revoked after a few requests, and recruiters booking during the read move the newest
 * placements to the head of the list after five placement requests (a crawl by offset then
 * reads some twice and never sees others: it must read the list again, not stop short or give up).
 */
export const MERGED_TENANT_FAULTS = ["pm-placements-502-page-3", "pm-burst-429", "pm-tokens-revoked", "pm-placements-drift"];

const Row = z.looseObject({
  placement_id: z.string(),
  client_id: z.string(),
  account_status: z.string(),
  billing_contact: z.string().nullable(),
  currency: z.string(),
  hourly_bill_rate: z.number().int(),
  hours_per_week: z.number().int(),
  weekly_billing_cents: z.number().int(),
  invoiceable: z.boolean(),
});
type Row = z.infer<typeof Row>;

/**
 * The CRM copy's key for a client: account managers type the PlaceMint id in by hand, so a few
 * carry capitals or stray spaces (the handover says the two join directly; they do not).
 */
const copyKey = (id: string): string => id.trim().toLowerCase();
/** Billing contacts of the CRM's weekly copy the agent gets, by PlaceMint client id. */
const CONTACTS = new Map<string, string>(snapshot.clients.map((c) => [copyKey(c.id), c.billing_contact]));
/** Account statuses of that copy, by PlaceMint client id (stale: PlaceMint's own win). */
const COPY_STATUS = new Map<string, string>(snapshot.clients.map((c) => [copyKey(c.id), c.account_status]));
/** Clients whose copy entry is keyed other than PlaceMint spells the id. */
const RETYPED = new Set(snapshot.clients.filter((c) => c.id !== copyKey(c.id)).map((c) => copyKey(c.id)));

/** The extract the ticket's rule gives for PlaceMint's state at `s`. */
function expected(s: Snapshot): Row[] {
  const clients = new Map<string, SnapshotRecord>((s.entities.client ?? []).map((c) => [c.id, c]));
  return (s.entities.placement ?? [])
    .filter((p) => !p.deleted && p.record.status === "active")
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((p) => {
      const cid = String(p.record.client_id);
      const client = clients.get(cid);
      const status = String(client?.record.account_status ?? "");
      const rate = Number(p.record.hourly_bill_rate);
      const hours = Number(p.record.hours_per_week);
      return {
        placement_id: p.id,
        client_id: cid,
        account_status: status,
        billing_contact: CONTACTS.get(cid) ?? null,
        currency: String(p.record.currency),
        hourly_bill_rate: rate,
        hours_per_week: hours,
        weekly_billing_cents: rate * hours,
        invoiceable: status === "active" && !!client && !client.deleted,
      };
    });
}

function compare(rows: Row[], want: Row[], fields: (keyof Row)[]): string[] {
  const got = new Map(rows.map((r) => [r.placement_id, r]));
  const wrong: string[] = [];
  for (const w of want) {
    const r = got.get(w.placement_id);
    if (!r) continue;
    const bad = fields.filter((f) => r[f] !== w[f]);
    if (bad.length) wrong.push(`${w.placement_id} (${bad.map((f) => `${f} ${JSON.stringify(r[f])}, want ${JSON.stringify(w[f])}`).join(", ")})`);
  }
  return wrong;
}

function judgeExtract(e: ScenarioEvidence, c: CheckRecorder): void {
  const run = byLabel(e, "extract");
  if (!plumbing(c, "extract_exit_ok", run, [EXTRACT], { ticket: "`extract` exits 0 when the extract is complete" })) return;
  const want = expected(e.snapshots.end[ROLE]);
  const rows = (outputRows<unknown>(run, EXTRACT) ?? []).flatMap((r) => {
    const row = Row.safeParse(r).data;
    return row ? [row] : [];
  });

  const wantIds = new Set(want.map((w) => w.placement_id));
  const gotIds = rows.map((r) => r.placement_id);
  const missing = [...wantIds].filter((id) => !gotIds.includes(id));
  const extra = gotIds.filter((id) => !wantIds.has(id));
  const twice = gotIds.filter((id, i) => gotIds.indexOf(id) !== i);
  const wrongBook = compare(rows, want, ["client_id", "currency", "hourly_bill_rate", "hours_per_week", "weekly_billing_cents"]);
  c.check("every_active_placement", !missing.length && !extra.length && !twice.length && !wrongBook.length && want.length > 0, {
    basis: { ticket: "Every placement PlaceMint has not deleted and whose `status` is `active` gets one row." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail:
      [
        missing.length && `${missing.length} of ${want.length} active placements missing (${fewIds(missing)})`,
        extra.length && `${extra.length} rows that are not active placements (${fewIds(extra)})`,
        twice.length && `${twice.length} placements twice (${fewIds(twice)})`,
        wrongBook.length && `${wrongBook.length} rows with PlaceMint's values wrong: ${wrongBook.slice(0, 2).join("; ")}`,
      ]
        .filter(Boolean)
        .join("; ") || `${want.length} active placements, each once, with PlaceMint's values`,
  });

  const wrongStatus = compare(rows, want, ["account_status", "invoiceable"]);
  const stale = want.filter((w) => COPY_STATUS.has(w.client_id) && COPY_STATUS.get(w.client_id) !== w.account_status).length;
  c.check("placemint_decides_invoicing", !wrongStatus.length && rows.length > 0, {
    basis: { ticket: "a placement is `invoiceable` when its client's `account_status` in PlaceMint is `active`" },
    pass: 2,
    mandatory: true,
    detail: wrongStatus.length
      ? `${wrongStatus.length} rows with the wrong account status or invoiceable flag: ${wrongStatus.slice(0, 2).join("; ")}`
      : `every row carries PlaceMint's account status (${stale} rows where the CRM copy says otherwise)`,
  });

  const wrongContact = compare(rows, want, ["billing_contact"]);
  const retypedRows = want.filter((w) => RETYPED.has(w.client_id)).length;
  c.check("billing_contact_from_crm_copy", !wrongContact.length && rows.length > 0, {
    basis: { ticket: "`billing_contact` comes from the CRM's weekly account copy (`input/accounts-snapshot.json`), which is the only place it is kept; `null` for a client the copy does not have." },
    pass: 1,
    mandatory: true,
    detail: wrongContact.length
      ? `${wrongContact.length} rows with the wrong billing contact: ${wrongContact.slice(0, 2).join("; ")}`
      : `billing contacts as the CRM copy has them (${retypedRows} rows of clients the copy keys with capitals or spaces)`,
  });

  const sorted = gotIds.every((id, i) => i === 0 || gotIds[i - 1] < id);
  c.check("extract_sorted", sorted, {
    basis: { ticket: "a JSON array with one row per active placement, sorted by `placement_id`" },
    pass: 1,
    detail: sorted ? "sorted by placement_id" : "not sorted by placement_id",
  });
}

export default defineTask({
  id: "task-0035",
  title: "PlaceMint book extract: harden for a three-times-larger tenant; a stale CRM account copy must not decide invoicing",
  kind: "harden",
  // Checkpoint 4: after the book's clean-up, so deleted placements (active ones among them) and
  // deleted clients (active ones with active placements among them) are in every seed's world.
  roles: { [ROLE]: { vendor: "placemint", checkpoint: 4, scale: 3 } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "stale_account_snapshot_authority",
  entry: { command: ["node", "src/main.ts"], subcommands: ["extract"] },
  outputs: { [EXTRACT]: jsonRows(Row) },
  timeLimitS: 60,
  scenarios: [{ name: "merged_tenant_extract", judge: (e, c) => judgeExtract(e, c) }],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "wait as long as PlaceMint asks when it asks us to slow down",
    resume_not_restart_after_5xx: "retry a failed request rather than starting the whole read again",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
  },
});
