import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { Vendor } from "../../schema/vendor.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { deliveries, deliveryChecks } from "../shared/deliveries.ts";
import { OFFER_LETTER_SHA256 } from "./offer-letter.ts";

export const ATS = "ats";
export const HR = "onboarding";
const LEDGER = "onboarding_ledger.json";
/** Faults the scenario arms (declared in declarations/vendors/talentforge.ts and onboardly.ts). */
export const ATS_FAULTS = ["tf-duplicate-storm", "tf-reversed-burst", "tf-forged-delivery", "tf-drop-second-event"];
export const HR_FAULTS = ["ob-create-504-after-commit"];
/** Go-live, as the ticket states it. */
const GO_LIVE_MS = Date.parse("2024-03-04T08:00:00Z");
const TEMPLATE = "tpl_0012";

const live = (s: Snapshot | undefined, entity: string) => (s?.entities[entity] ?? []).filter((r) => !r.deleted);
const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();

/** The hires at a TalentForge snapshot: applications at `hired` that reached it after go-live. */
function hires(tf: Snapshot): SnapshotRecord[] {
  return live(tf, "application").filter((a) => a.record.stage === "hired" && Date.parse(String(a.record.updated_at)) > GO_LIVE_MS);
}

/** Packets created since `before`, each with its live signers and documents. */
function newPackets(before: Snapshot, at: Snapshot) {
  const old = new Set((before.entities.packet ?? []).map((p) => p.id));
  const signers = live(at, "signer");
  const docs = live(at, "document");
  return live(at, "packet")
    .filter((p) => !old.has(p.id))
    .map((packet) => ({ packet, signers: signers.filter((g) => g.record.packet_id === packet.id), docs: docs.filter((d) => d.record.packet_id === packet.id) }));
}

/**
 * Problems of Onboardly at `at` against the hires of TalentForge at `tf`. `complete`: every hire must be
 * provisioned in full; otherwise a hire may still lack its packet (the webhooks alone), but nothing may be doubled.
 */
function provisioningProblems(tf: Snapshot, before: Snapshot, at: Snapshot, complete: boolean): string[] {
  const candidates = new Map(live(tf, "candidate").map((c) => [c.id, c.record]));
  const requisitions = new Map(live(tf, "requisition").map((r) => [r.id, r.record]));
  const made = newPackets(before, at);
  const problems: string[] = [];
  const wanted = new Map<string, SnapshotRecord[]>();
  for (const h of hires(tf)) {
    const email = emailKey(candidates.get(String(h.record.candidate_id))?.email);
    wanted.set(email, [...(wanted.get(email) ?? []), h]);
  }
  const byEmail = new Map<string, typeof made>();
  for (const m of made) {
    if (m.signers.length !== 1) problems.push(`packet ${m.packet.id}: ${m.signers.length} signers`);
    const email = emailKey(m.signers[0]?.record.email);
    byEmail.set(email, [...(byEmail.get(email) ?? []), m]);
  }
  for (const [email, ms] of byEmail) if (!wanted.has(email)) problems.push(`${ms.length} packet(s) for ${email || "nobody"}, who is no hire (${fewIds(ms.map((m) => m.packet.id))})`);
  for (const [email, hs] of wanted) {
    const ms = byEmail.get(email) ?? [];
    const ids = hs.map((h) => h.id).join("+");
    if (ms.length > hs.length) problems.push(`${ids}: ${ms.length} packets`);
    else if (complete && ms.length < hs.length) problems.push(`${ids}: ${ms.length} packets, ${hs.length} wanted`);
    for (const m of ms) {
      const h = hs[0];
      const cand = candidates.get(String(h.record.candidate_id));
      const req = requisitions.get(String(h.record.requisition_id));
      const off: string[] = [];
      if (m.packet.record.template_id !== TEMPLATE) off.push("template_id");
      if (hs.length === 1 && req && (m.packet.record.job_title !== req.title || m.packet.record.department !== req.department)) off.push("job_title/department");
      const g = m.signers[0]?.record;
      if (g && cand && (g.first_name !== cand.given_name || g.last_name !== cand.family_name || g.role !== "new_hire" || g.signing_order !== 1 || g.auth_method !== "email_link")) off.push("signer");
      const letters = m.docs.filter((d) => d.record.filename === "offer-letter.pdf");
      if (m.docs.length > 1 || letters.length > 1) off.push(`${m.docs.length} documents`);
      else if (complete && (letters.length !== 1 || letters[0].record.status !== "uploaded" || letters[0].record.sha256 !== OFFER_LETTER_SHA256))
        off.push("offer letter not uploaded as input/offer-letter.pdf");
      if (off.length) problems.push(`${ids} packet ${m.packet.id}: ${off.join(", ")}`);
    }
  }
  return problems;
}

/** Problems of the ledger against Onboardly at `at`. */
function ledgerProblems(rows: Record<string, unknown>[], tf: Snapshot, before: Snapshot, at: Snapshot): string[] {
  const made = newPackets(before, at);
  const problems: string[] = [];
  const want = new Set(hires(tf).map((h) => h.id));
  for (const id of want) if (rows.filter((r) => r.application_id === id).length !== 1) problems.push(`${id}: ${rows.filter((r) => r.application_id === id).length} rows`);
  for (const r of rows) {
    if (!want.has(String(r.application_id))) {
      problems.push(`${String(r.application_id)}: not a hire`);
      continue;
    }
    const m = made.find((x) => x.packet.id === r.packet_id);
    if (!m) problems.push(`${String(r.application_id)}: packet ${JSON.stringify(r.packet_id)} is not one Onboardly holds`);
    else if (m.signers[0]?.id !== r.signer_id || m.docs[0]?.id !== r.document_id) problems.push(`${String(r.application_id)}: signer_id/document_id not those of packet ${m.packet.id}`);
    const app = live(tf, "application").find((a) => a.id === r.application_id);
    if (app && String(app.record.candidate_id) !== r.candidate_id) problems.push(`${String(r.application_id)}: candidate_id ${JSON.stringify(r.candidate_id)}`);
  }
  if (!rows.every((r, i) => i === 0 || String(rows[i - 1].application_id) < String(r.application_id))) problems.push("not sorted by application_id");
  return problems;
}

/** Records that changed, appeared or went away between two snapshots. */
function snapshotDiff(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const entity of new Set([...Object.keys(a.entities), ...Object.keys(b.entities)])) {
    const was = new Map((a.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    const now = new Map((b.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    for (const id of new Set([...was.keys(), ...now.keys()])) if (was.get(id) !== now.get(id)) out.push(`${entity} ${id}`);
  }
  return out;
}

/**
 * Requests of the log that a vendor committed as one of its declared writes (2xx on a write's method
 * and path, `:param` segments matching any one segment): writes made in any phase, the listener's included.
 */
function committedWritesTo(vendor: Vendor, requests: RequestLogEntry[]): RequestLogEntry[] {
  const writes = vendor.writes.filter((w) => w.path).map((w) => ({ method: w.method, pattern: new RegExp(`^${w.path!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z]+/g, "[^/]+")}$`) }));
  return requests.filter((r) => r.status >= 200 && r.status < 300 && writes.some((w) => w.method === r.method && w.pattern.test(r.path)));
}

const ONCE = { ticket: "Each hire gets one packet, never two, with the hire on it once and the offer letter uploaded once." };
const NOTHING_ELSE = { ticket: "Nothing else is written to either vendor: no packet for anyone who is not a hire." };
const EXIT = { ticket: "`reconcile` exits `0` when every hire is provisioned" };

function judge(e: ScenarioEvidence, c: CheckRecorder, talentforge: Vendor): void {
  const maxSkewS = talentforge.webhooks?.maxSkewS ?? 300;
  const obBefore = e.snapshots.before[HR];
  const tfHooks = e.snapshots.after_hooks[ATS];
  const hooks = provisioningProblems(tfHooks, obBefore, e.snapshots.after_hooks[HR], false);
  c.check("webhooks_provision_nothing_twice", !hooks.length, {
    basis: ONCE,
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: hooks.length ? `${hooks.length} problems after the webhooks: ${fewIds(hooks)}` : `${hires(tfHooks).length} hires; nothing doubled or wrong after the webhooks`,
  });
  const waiting = hires(tfHooks).filter((h) => provisioningProblems(tfHooks, obBefore, e.snapshots.after_hooks[HR], true).some((p) => p.includes(h.id)));
  const dropped = ATS_FAULTS.includes("tf-drop-second-event") ? 1 : 0;
  c.check("webhooks_provision_announced_hires", waiting.length <= dropped, {
    basis: { ticket: "The listener provisions each hire it hears about as it hears about it" },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: `${waiting.length} of ${hires(tfHooks).length} hires not provisioned by the listener${waiting.length ? ` (${fewIds(waiting.map((h) => h.id))})` : ""}; TalentForge lost ${dropped} event`,
  });
  deliveryChecks(c, deliveries(e, ATS), maxSkewS, {
    acknowledged: { ticket: "answer what you took in with a 2xx" },
    refused: { ticket: "Refuse it with a 4xx" },
  });

  const run = byLabel(e, "reconcile");
  if (!plumbing(c, "reconcile_exit_ok", run, [LEDGER], EXIT)) return;
  const tf = e.snapshots.after_reconcile[ATS];
  const hr = e.snapshots.after_reconcile[HR];
  const all = provisioningProblems(tf, obBefore, hr, true);
  c.check("every_hire_provisioned_once", !all.length, {
    basis: ONCE,
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: all.length ? `${all.length} problems: ${fewIds(all)}` : `${hires(tf).length} hires, each with one packet, its hire once and the offer letter uploaded`,
  });
  const changedTf = snapshotDiff(tfHooks, tf);
  const oldTouched = snapshotDiff(
    { ...obBefore, entities: Object.fromEntries(Object.entries(obBefore.entities)) },
    { ...hr, entities: Object.fromEntries(Object.entries(hr.entities).map(([k, rows]) => [k, rows.filter((r) => (obBefore.entities[k] ?? []).some((o) => o.id === r.id))])) },
  );
  // The listener's writes to TalentForge fall before the reconcile's snapshots: the request log shows them.
  const tfWrites = committedWritesTo(talentforge, e.requests[ATS] ?? []);
  c.check("nothing_else_written", !changedTf.length && !oldTouched.length && !tfWrites.length, {
    basis: NOTHING_ELSE,
    mandatory: true,
    level: "l1",
    detail:
      changedTf.length || oldTouched.length || tfWrites.length
        ? `TalentForge records changed by us: ${changedTf.length} (${fewIds(changedTf)}); writes TalentForge committed: ${tfWrites.length} (${fewIds(tfWrites.map((r) => `#${r.seq} ${r.method} ${r.path}`))}); Onboardly records that existed changed: ${oldTouched.length} (${fewIds(oldTouched)})`
        : "only the hires' packets, signers and documents were added",
  });
  const wrong = ledgerProblems(objects(outputRows<Record<string, unknown>>(run, LEDGER)), tf, obBefore, hr);
  c.check("ledger_true_to_onboardly", !wrong.length, {
    basis: { ticket: "Say what Onboardly holds." },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: wrong.length ? `${wrong.length} problems: ${fewIds(wrong)}` : `${hires(tf).length} rows, each true to Onboardly`,
  });

  const rerun = byLabel(e, "rerun");
  if (!plumbing(c, "rerun_exit_ok", rerun, [LEDGER], EXIT)) return;
  const diff = snapshotDiff(hr, e.snapshots.rerun[HR]);
  c.check("rerun_wrote_nothing", !diff.length, {
    basis: ONCE,
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: diff.length ? `the second reconcile changed ${diff.length} Onboardly records (${fewIds(diff)})` : "the second reconcile left Onboardly as it was",
  });

  const creates = (e.requests[HR] ?? []).filter((r) => r.method === "POST" && /^\/api\/v1\/packets(\/[^/]+\/(signers|documents))?$/.test(r.path));
  if (creates.length) {
    const bare = creates.filter((r) => !r.idempotencyKey);
    c.check("onboardly_creates_carry_idempotency_key", !bare.length, {
      basis: { ticket: "Send an `Idempotency-Key` with every Onboardly create." },
      level: "l2",
      detail: bare.length ? `${bare.length} of ${creates.length} creates without an Idempotency-Key` : `${creates.length} creates, each with an Idempotency-Key`,
    });
  }
}

export default defineTask({
  id: "task-0025",
  title: "Larkfield hires into Onboardly: id-only TalentForge webhooks provision each packet exactly once, a reconcile finds what the webhooks lost",
  kind: "build",
  roles: { [ATS]: { vendor: "talentforge", checkpoint: 0 }, [HR]: { vendor: "onboardly", checkpoint: 0 } },
  seed: 7,
  docsProfile: "stale",
  surfaces: ["webhooks", "polling", "writeback"],
  primaryMechanic: "cross_vendor_id_only_webhook_provisioning",
  entry: { command: ["node", "src/main.ts"], subcommands: ["serve", "reconcile"] },
  outputs: {
    [LEDGER]: jsonRows(
      z.looseObject({
        application_id: z.string(),
        candidate_id: z.string(),
        packet_id: z.string(),
        signer_id: z.string(),
        document_id: z.string(),
      }),
    ),
  },
  timeLimitS: 60,
  scenarios: [
    {
      // Go-live: the listener takes a day of TalentForge changes (every third event three times,
      // the burst reversed, one forged delivery, the second event lost) while Onboardly loses the
      // answer to the first packet it creates; then the night's reconcile, then a second one.
      name: "go_live_day",
      judge: (e, c, ctx) => judge(e, c, ctx.vendors[ATS]),
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Keep credentials out of URLs.",
    no_secrets_echoed_to_vendor: "Keep credentials out of URLs.",
    webhook_bad_signature_rejected: "nothing that is not provably from TalentForge, now, may provision anything",
    webhook_stale_timestamp_rejected: "nothing that is not provably from TalentForge, now, may provision anything",
  },
});
