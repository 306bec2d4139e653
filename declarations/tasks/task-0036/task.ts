import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { Write } from "../../schema/writes.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import hris from "./repo/input/new_hires.json" with { type: "json" };

export const ROLE = "onboarding";
const RESULT = "push_result.json";
/** Faults the scenario arms (declared in declarations/vendors/onboardly.ts). */
export const SIGNER_REFUSED_AFTER_PACKET = "ob-signer-503-after-packet";
export const CREATE_LOST = "ob-create-504-after-commit";
export const SIGNER_LOST = "ob-signer-500-after-commit";
export const SESSIONS_ENDED = "ob-sessions-ended";

/** One starter of the HRIS export the starter repo ships. */
interface Starter {
  ref: string;
  template_id: string;
  job_title: string;
  department: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  auth_method: string;
}

/** One row of push_result.json, as the ticket defines it. */
interface ResultRow {
  ref: unknown;
  status: unknown;
  packet_id: unknown;
  signer_id: unknown;
  error: unknown;
}

/** Each starter once: the last row for a `ref` counts (HR's corrections are exported again further down). */
const STARTERS: Starter[] = [...new Map((hris.hires as Starter[]).map((s) => [s.ref, s])).values()];
/** Starters the file lists more than once, with the values their earlier rows had. */
const CORRECTED = STARTERS.filter((s) => hris.hires.filter((h) => h.ref === s.ref).length > 1);
const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();

function writeOf(vendor: Vendor, name: string): Write {
  const w = vendor.writes.find((x) => x.name === name);
  if (!w) throw new Error(`task-0036 expects ${vendor.id} to declare the write ${name}`);
  return w;
}

/** Whether Onboardly takes a write body, by the write's declared inputs (required, type, length, allowed values). */
function acceptedBy(w: Write, body: Record<string, unknown>): boolean {
  return w.inputs.every((input) => {
    const v = body[input.name];
    if (v === undefined || v === null || v === "") return !input.required;
    if (input.type === "string" && typeof v !== "string") return false;
    if (input.type === "integer" && !Number.isInteger(v)) return false;
    if (input.maxLength !== undefined && String(v).length > input.maxLength) return false;
    return !input.oneOf || input.oneOf.includes(String(v));
  });
}

/** The createPacket body the ticket's mapping gives for a starter. */
const packetBody = (s: Starter): Record<string, unknown> => ({ template_id: s.template_id, job_title: s.job_title, department: s.department });

/**
 * A UK mobile as HR typed it, in the E.164 form Onboardly's addSigner documents: separators and a
 * bracketed trunk `(0)` dropped, a national `0` or an international `00` prefix turned into `+44` / `+`.
 */
export function ukE164(typed: string): string {
  const bare = typed.replace(/\(0\)/g, "").replace(/[^\d+]/g, "");
  if (bare.startsWith("+")) return bare;
  if (bare.startsWith("00")) return `+${bare.slice(2)}`;
  if (bare.startsWith("44")) return `+${bare}`;
  return `+44${bare.replace(/^0/, "")}`;
}

/** The addSigner body the ticket's mapping gives for a starter (phone left out when the HRIS has none). */
const signerBody = (s: Starter): Record<string, unknown> => ({
  first_name: s.first_name,
  last_name: s.last_name,
  email: s.email,
  ...(s.phone ? { phone: ukE164(s.phone) } : {}),
  role: "new_hire",
  signing_order: 1,
  auth_method: s.auth_method,
});

/**
 * Whether a starter can be settled: the template exists and is active at the start
 * (Onboardly builds packets from retired ones, the ticket forbids it), and Onboardly
 * takes both bodies.
 */
function settleable(vendor: Vendor, before: Snapshot, s: Starter): boolean {
  const tpl = (before.entities.template ?? []).find((t) => t.id === s.template_id && !t.deleted);
  return !!tpl && tpl.record.is_active === true && acceptedBy(writeOf(vendor, "createPacket"), packetBody(s)) && acceptedBy(writeOf(vendor, "addSigner"), signerBody(s));
}

/** Packets that appeared since `before`, each with its live signers. */
function newPackets(before: Snapshot, at: Snapshot): { packet: SnapshotRecord; signers: SnapshotRecord[] }[] {
  const old = new Set((before.entities.packet ?? []).map((p) => p.id));
  const signers = (at.entities.signer ?? []).filter((g) => !g.deleted);
  return (at.entities.packet ?? []).filter((p) => !p.deleted && !old.has(p.id)).map((packet) => ({ packet, signers: signers.filter((g) => String(g.record.packet_id) === packet.id) }));
}

/** Each starter's new packets (by the starter's email among a packet's signers). */
function packetsByStarter(made: ReturnType<typeof newPackets>): Map<string, { packet: SnapshotRecord; signers: SnapshotRecord[] }[]> {
  const out = new Map<string, { packet: SnapshotRecord; signers: SnapshotRecord[] }[]>();
  for (const s of STARTERS) out.set(s.ref, []);
  for (const m of made)
    for (const s of STARTERS)
      if (s.email && m.signers.some((g) => emailKey(g.record.email) === emailKey(s.email)))
        out.get(s.ref)?.push({ packet: m.packet, signers: m.signers.filter((g) => emailKey(g.record.email) === emailKey(s.email)) });
  return out;
}

/** Why the starters' packets at `at` are not each exactly once; `final`: every settleable starter must be sent. */
function onceProblems(vendor: Vendor, before: Snapshot, at: Snapshot, final: boolean): string[] {
  const mine = packetsByStarter(newPackets(before, at));
  const problems: string[] = [];
  for (const s of STARTERS) {
    const got = mine.get(s.ref) ?? [];
    if (!settleable(vendor, before, s)) {
      if (got.length) problems.push(`${s.ref}: cannot be settled, yet has ${got.length} packet(s)`);
      continue;
    }
    if (got.length > 1) problems.push(`${s.ref}: ${got.length} packets`);
    else if (got.length === 1 && got[0].signers.length > 1) problems.push(`${s.ref}: on packet ${got[0].packet.id} ${got[0].signers.length} times`);
    else if (final && got.length === 0) problems.push(`${s.ref}: no packet with the starter on it`);
  }
  return problems;
}

/** New packets with nobody on them, and new packets carrying people who are not starters of the file. */
function emptyPackets(before: Snapshot, at: Snapshot): { empty: string[]; strangers: string[] } {
  const emails = new Set(STARTERS.map((s) => emailKey(s.email)).filter(Boolean));
  const made = newPackets(before, at);
  return {
    empty: made.filter((m) => m.signers.length === 0).map((m) => m.packet.id),
    strangers: made.filter((m) => m.signers.some((g) => !emails.has(emailKey(g.record.email)))).map((m) => m.packet.id),
  };
}

/** Problems of a push_result.json against Onboardly at `at`; `pendingAllowed` for the run that met the signer outage. */
function resultProblems(vendor: Vendor, rows: ResultRow[], before: Snapshot, at: Snapshot, pendingAllowed: boolean): string[] {
  const mine = packetsByStarter(newPackets(before, at));
  const empty = new Set(emptyPackets(before, at).empty);
  const problems: string[] = [];
  for (const s of STARTERS) {
    const these = rows.filter((r) => String(r.ref) === s.ref);
    if (these.length !== 1) {
      problems.push(`${s.ref}: ${these.length} rows`);
      continue;
    }
    const row = these[0];
    if (!settleable(vendor, before, s)) {
      if (row.status !== "refused" || row.packet_id !== null || row.signer_id !== null) problems.push(`${s.ref}: must be refused with no packet, reported ${JSON.stringify(row.status)}`);
      else if (typeof row.error !== "string" || !row.error.trim()) problems.push(`${s.ref}: refused without a reason`);
      continue;
    }
    const got = mine.get(s.ref) ?? [];
    if (got.length === 1 && got[0].signers.length === 1) {
      if (row.status !== "sent") problems.push(`${s.ref}: status ${JSON.stringify(row.status)}, Onboardly has the starter on packet ${got[0].packet.id}`);
      else if (row.packet_id !== got[0].packet.id || row.signer_id !== got[0].signers[0].id)
        problems.push(`${s.ref}: packet_id/signer_id ${JSON.stringify(row.packet_id)}/${JSON.stringify(row.signer_id)}, Onboardly has ${got[0].packet.id}/${got[0].signers[0].id}`);
      else if (row.error !== null) problems.push(`${s.ref}: error on a sent row`);
      continue;
    }
    if (got.length === 0 && pendingAllowed && row.status === "pending") {
      if (row.signer_id !== null) problems.push(`${s.ref}: pending with a signer_id`);
      else if (row.packet_id !== null && !empty.has(String(row.packet_id)))
        problems.push(`${s.ref}: pending on ${JSON.stringify(row.packet_id)}, which is not a packet the job left without its starter`);
      continue;
    }
    problems.push(`${s.ref}: reported ${JSON.stringify(row.status)}, Onboardly holds ${got.length} packet(s) for the starter`);
  }
  const refs = new Set(STARTERS.map((s) => s.ref));
  for (const r of rows) if (!refs.has(String(r.ref))) problems.push(`${String(r.ref)}: no such starter`);
  if (!rows.every((r, i) => i === 0 || String(rows[i - 1].ref) < String(r.ref))) problems.push("not sorted by ref");
  return problems;
}

/** Pending rows' packet ids: the packets a run may leave empty for the next one. */
function pendingPackets(rows: ResultRow[]): Set<string> {
  return new Set(rows.filter((r) => r.status === "pending" && typeof r.packet_id === "string").map((r) => String(r.packet_id)));
}

/** Records that existed at `before` and changed or went away by `after`. */
function touched(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [entity, rows] of Object.entries(before.entities)) {
    const now = new Map((after.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    for (const r of rows) if (now.get(r.id) !== JSON.stringify(r)) out.push(`${entity} ${r.id}`);
  }
  return out;
}

/** Records that changed, appeared or went away between two snapshots. */
function snapshotDiff(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const entity of new Set([...Object.keys(a.entities), ...Object.keys(b.entities)])) {
    const was = new Map((a.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    const now = new Map((b.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    for (const [id, r] of now) if (was.get(id) !== r) out.push(`${entity} ${id}`);
    for (const id of was.keys()) if (!now.has(id)) out.push(`${entity} ${id}`);
  }
  return out;
}

const ONCE = {
  ticket: "Each starter ends up with exactly one packet, with the starter on it exactly once, never two packets and never a second copy of the signer, whatever Onboardly answers along the way.",
};
const NOBODY = {
  ticket: "every packet the job creates gets its starter, in the same run if Onboardly lets you, otherwise in the next run, and the result file says which.",
};
const PHONES = { ticket: "Onboardly texts signing codes to `phone`, so send every number in the form Onboardly's API asks for." };
const TRUE_RESULT = { ticket: "Say what Onboardly holds, not what you sent." };
const EXIT = { ticket: "`push` exits `0` when every starter has been dealt with (sent, pending or refused)" };

function judge(e: ScenarioEvidence, c: CheckRecorder, vendor: Vendor): void {
  const before = e.snapshots.before[ROLE];
  const first = byLabel(e, "first");
  if (plumbing(c, "first_push_exit_ok", first, [RESULT], EXIT)) {
    const at = e.snapshots.first[ROLE];
    const rows = objects(outputRows<ResultRow>(first, RESULT));
    const problems = onceProblems(vendor, before, at, false);
    c.check("first_run_no_packet_or_signer_twice", !problems.length, {
      basis: ONCE,
      pass: 2,
      mandatory: true,
      level: "l3",
      detail: problems.length ? `${problems.length} problems: ${fewIds(problems)}` : "no starter has two packets or a second copy of the signer",
    });
    const { empty, strangers } = emptyPackets(before, at);
    const unexplained = empty.filter((id) => !pendingPackets(rows).has(id));
    c.check("first_run_empty_packets_reported_pending", !unexplained.length && !strangers.length, {
      basis: NOBODY,
      pass: 2,
      mandatory: true,
      level: "l3",
      detail:
        [
          unexplained.length && `${unexplained.length} new packets with nobody on them that no pending row names (${fewIds(unexplained)})`,
          strangers.length && `packets with people not in the file (${fewIds(strangers)})`,
        ]
          .filter(Boolean)
          .join("; ") || `every new packet has its starter${empty.length ? `, or is reported pending (${empty.length})` : ""}`,
    });
    const wrong = resultProblems(vendor, rows, before, at, true);
    c.check("first_run_result_true", !wrong.length, {
      basis: TRUE_RESULT,
      pass: 1,
      level: "l3",
      detail: wrong.length ? `${wrong.length} problems: ${fewIds(wrong)}` : `${STARTERS.length} rows, each true to Onboardly`,
    });
  }

  const second = byLabel(e, "second");
  if (!plumbing(c, "second_push_exit_ok", second, [RESULT], EXIT)) return;
  const settled = e.snapshots.second[ROLE];
  const problems = onceProblems(vendor, before, settled, true);
  c.check("every_starter_settled_once", !problems.length, {
    basis: ONCE,
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: problems.length ? `${problems.length} problems: ${fewIds(problems)}` : "every starter Onboardly can take has one packet with the starter on it once; the others have none",
  });
  const { empty, strangers } = emptyPackets(before, settled);
  c.check("no_packet_left_empty", !empty.length && !strangers.length, {
    basis: NOBODY,
    pass: 2,
    mandatory: true,
    level: "l1",
    detail:
      [empty.length && `${empty.length} packets the job created still have nobody on them (${fewIds(empty)})`, strangers.length && `packets with people not in the file (${fewIds(strangers)})`]
        .filter(Boolean)
        .join("; ") || "every packet the job created has its starter on it",
  });
  const refusedBuilt = STARTERS.filter((s) => !settleable(vendor, before, s)).map((s) => s.ref);
  const wrongResult = resultProblems(vendor, objects(outputRows<ResultRow>(second, RESULT)), before, settled, false);
  c.check("result_true_to_onboardly", !wrongResult.length, {
    basis: TRUE_RESULT,
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: wrongResult.length
      ? `${wrongResult.length} problems: ${fewIds(wrongResult)}`
      : `${STARTERS.length} rows, each true to Onboardly (${refusedBuilt.length} refused: ${refusedBuilt.join(", ")})`,
  });

  const mine = packetsByStarter(newPackets(before, settled));
  const offMapping: string[] = [];
  for (const s of STARTERS) {
    for (const { packet, signers } of mine.get(s.ref) ?? []) {
      const p = packetBody(s);
      const off = Object.keys(p).filter((k) => packet.record[k] !== p[k]);
      const g = { ...signerBody(s), phone: s.phone ? ukE164(s.phone) : null };
      for (const signer of signers) off.push(...Object.keys(g).filter((k) => (signer.record[k] ?? null) !== g[k as keyof typeof g]));
      if (off.length) offMapping.push(`${s.ref} (${off.join(", ")})`);
    }
  }
  const stale: string[] = [];
  for (const s of CORRECTED)
    for (const { packet } of mine.get(s.ref) ?? [])
      if (packet.record.job_title !== s.job_title || packet.record.department !== s.department)
        stale.push(`${s.ref} (packet ${packet.id}: ${JSON.stringify(packet.record.job_title)}, ${JSON.stringify(packet.record.department)})`);
  c.check("corrected_starters_from_last_row", !stale.length, {
    basis: { ticket: "the last row for a `ref` is the one that counts." },
    mandatory: true,
    level: "l2",
    detail: stale.length
      ? `${stale.length} corrected starters built from an earlier row: ${fewIds(stale)}`
      : `${CORRECTED.length} corrected starters (${CORRECTED.map((s) => s.ref).join(", ")}) built from their last row`,
  });

  const badPhones: string[] = [];
  for (const s of STARTERS)
    for (const { signers } of mine.get(s.ref) ?? [])
      for (const g of signers) {
        const want = s.phone ? ukE164(s.phone) : null;
        if ((g.record.phone ?? null) !== want) badPhones.push(`${s.ref} (${JSON.stringify(g.record.phone ?? null)}, should be ${JSON.stringify(want)})`);
      }
  c.check("signer_phones_textable", !badPhones.length, {
    basis: PHONES,
    mandatory: true,
    level: "l2",
    detail: badPhones.length ? `${badPhones.length} signers whose phone Onboardly cannot text: ${fewIds(badPhones)}` : "every signer's phone is in E.164 form, or left out where the HRIS has none",
  });

  c.check("packets_and_signers_as_mapped", !offMapping.length, {
    basis: { ticket: "`template_id`, `job_title` and `department` from the starter's row" },
    detail: offMapping.length ? `${offMapping.length} starters not written as the mapping says: ${fewIds(offMapping)}` : "every packet and signer written as the mapping says",
  });

  const changed = touched(before, settled);
  c.check("nothing_else_changed", !changed.length, {
    basis: { ticket: "Change nothing else in Onboardly: no other packet, signer or template is touched." },
    mandatory: true,
    detail: changed.length ? `${changed.length} records that existed before changed or went away (${fewIds(changed)})` : "no record that existed before was touched",
  });

  const rerun = byLabel(e, "rerun");
  if (!plumbing(c, "rerun_push_exit_ok", rerun, [RESULT], EXIT)) return;
  const diff = snapshotDiff(settled, e.snapshots.rerun[ROLE]);
  c.check("rerun_changed_nothing", !diff.length, {
    basis: { ticket: "A run over starters that are already settled changes nothing in Onboardly and writes the same, true result." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: diff.length ? `the rerun changed or created ${diff.length} records (${fewIds(diff)})` : "the rerun left Onboardly as it was",
  });
  const again = resultProblems(vendor, objects(outputRows<ResultRow>(rerun, RESULT)), before, e.snapshots.rerun[ROLE], false);
  c.check("rerun_result_true", !again.length, {
    basis: { ticket: "A run over starters that are already settled changes nothing in Onboardly and writes the same, true result." },
    level: "l3",
    detail: again.length ? `${again.length} problems: ${fewIds(again)}` : `${STARTERS.length} rows, each true to Onboardly`,
  });

  const creates = (e.requests[ROLE] ?? []).filter((r) => r.method === "POST" && /^\/api\/v1\/packets(\/[^/]+\/signers)?$/.test(r.path));
  if (creates.length) {
    const bare = creates.filter((r) => !r.idempotencyKey);
    c.check("creates_carry_idempotency_key", !bare.length, {
      basis: { ticket: "Send an `Idempotency-Key` with every create." },
      level: "l2",
      detail: bare.length ? `${bare.length} of ${creates.length} creates without an Idempotency-Key (first #${bare[0].seq})` : `${creates.length} creates, each with an Idempotency-Key`,
    });
  }
}

export default defineTask({
  id: "task-0036",
  title: "Fernhill starters into Onboardly: settle half-applied packet-and-signer pairs through lost answers, a signer outage and ended sessions",
  kind: "fix",
  roles: { [ROLE]: { vendor: "onboardly", checkpoint: 0 } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["writeback"],
  primaryMechanic: "non_atomic_paired_writeback",
  entry: { command: ["node", "src/main.ts"], subcommands: ["push"] },
  outputs: {
    [RESULT]: jsonRows(
      z.looseObject({
        ref: z.string(),
        status: z.enum(["sent", "pending", "refused"]),
        packet_id: z.string().nullable(),
        signer_id: z.string().nullable(),
        error: z.string().nullable(),
      }),
    ),
  },
  timeLimitS: 60,
  scenarios: [
    {
      // One intake through a bad night: the first create commits but answers 504, the first
      // signer after a packet is refused (503, the packet stays), a later signer commits but
      // answers 500, and every session ends mid-run. The next night's run settles what the
      // first left pending; a rerun by hand changes nothing.
      name: "intake_bad_night_then_rerun",
      judge: (e, c, ctx) => judge(e, c, ctx.vendors[ROLE]),
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    token_reused_not_reminted: "Reuse a session while it is valid rather than signing in for every call",
    retry_after_honored: "do not hammer an endpoint that is failing",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "Send an `Idempotency-Key` with every create.",
  },
});
