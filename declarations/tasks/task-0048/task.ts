import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { csvRows, jsonRows } from "../../schema/output-contract.ts";
import { commandsRanOk } from "../shared/command-runs.ts";
import { byLabel, fewIds, outputRows } from "../shared/judging.ts";

export const ROLE = "clock";
const PUNCH = "punch";
const NOTE = "note";
const COPY = "punches_utc.json";
const AUDIT = "migration_audit.csv";
const LEGACY = "punches.json";
const FILES = [COPY, AUDIT];
/** The old job's last night: the punches of the first pass through the repeated hour exist. */
export const LEGACY_NIGHT = 2;
/** The cutover: the clocks have gone back, the repeated hour has passed a second time. */
export const CUTOVER = 3;
/** The first note Rosterly commits answers a 504 (declarations/vendors/rosterly.ts). */
export const NOTE_LOST_ANSWER = "rl-note-504-after-commit";
/**
 * The session is signed out while the notes are filed: on the seed's first ambiguous punch's worker file, the second
 * request there (the retry of the lost answer, when notes go in punch order) meets a revoked session
 * (declarations/vendors/rosterly.ts); a new login issues a new CSRF token.
 */
export const SIGNED_OUT = "rl-signed-out-mid-notes";
/** Signed out again later in the notes, on a file that gets two of them (whatever order they are filed in). */
export const SIGNED_OUT_AGAIN = "rl-signed-out-again-mid-notes";
/**
 * The punch list keeps moving while the cutover reads it: every fifth request to it, for its first thirty, the newest
 * punches move to the head (declarations/vendors/rosterly.ts), so a whole read at the largest page size comes back short
 * of `total` three times running; the fourth holds every punch.
 */
export const PUNCHES_MOVING = [1, 2, 3, 4, 5, 6].map((n) => `rl-punches-cutover-drift-${n}`);

const CopyRow = z.object({ punch_id: z.string(), worker_id: z.string(), shift_id: z.string(), kind: z.string(), venue_tz: z.string(), punched_utc: z.string() });
type CopyRow = z.infer<typeof CopyRow>;
/** A row of the old job's copy (the fields the migration reads). */
const LegacyRow = z.object({ id: z.string(), punched_at: z.string() });
type LegacyRow = z.infer<typeof LegacyRow>;
const AUDIT_HEADER = ["punch_id", "legacy_punched_at", "punched_utc", "shift_minutes", "status"];
const AuditRow = z.object({ punch_id: z.string(), legacy_punched_at: z.string(), punched_utc: z.string(), shift_minutes: z.string(), status: z.string() });
type AuditRow = z.infer<typeof AuditRow>;

const BASES = {
  copy: { ticket: "Every punch Rosterly holds that is not deleted, one row each, an array sorted by `punch_id`" },
  moment: { ticket: "`punched_utc` is the moment the worker punched, in UTC (ISO 8601 ending in `Z`)." },
  audit: { ticket: "`migration_audit.csv` holds one record per punch of the old job's copy, sorted by `punch_id`, with a header row" },
  notes: { ticket: "One note per such punch, ever: never two, whatever happens on the way, and a rerun files nothing new." },
};

const clocks = new Map<string, Intl.DateTimeFormat>();

/** An instant as a zone's wall clock reads it (`2025-10-26T01:30:00`). */
function onClock(zone: string, ms: number): string {
  let f = clocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    clocks.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** The zone's offset from UTC (ms) at an instant. */
function offsetAt(zone: string, ms: number): number {
  return Date.parse(`${onClock(zone, ms)}Z`) - Math.floor(ms / 1000) * 1000;
}

const instantsMemo = new Map<string, number[]>();

/**
 * Every instant a zone's clock reads as `wall` (two on a fall-back night): the
 * zone's offsets a day either side and at the stamp are every offset it can
 * have had around it.
 */
function instantsOf(wall: string, zone: string): number[] {
  const key = `${zone}|${wall}`;
  const hit = instantsMemo.get(key);
  if (hit) return hit;
  const asUtc = Date.parse(`${wall}Z`);
  let out: number[] = [];
  if (!Number.isNaN(asUtc) && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(wall)) {
    try {
      const offsets = new Set([offsetAt(zone, asUtc - 86_400_000), offsetAt(zone, asUtc), offsetAt(zone, asUtc + 86_400_000)]);
      out = [...new Set([...offsets].map((off) => asUtc - off))].filter((ms) => onClock(zone, ms) === wall).sort((a, b) => a - b);
    } catch {
      out = [];
    }
  }
  instantsMemo.set(key, out);
  return out;
}

/** An ISO 8601 instant ending in `Z`, as ms; null otherwise. */
function zInstant(v: unknown): number | null {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v)) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}

function punches(s: Snapshot | undefined): Map<string, { deleted: boolean; record: Record<string, unknown> }> {
  return new Map((s?.entities[PUNCH] ?? []).map((r) => [r.id, { deleted: r.deleted, record: r.record }]));
}

/** The live punches at `truth` whose wall time their venue's clock showed twice. */
function ambiguousPunches(truth: Snapshot): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const r of truth.entities[PUNCH] ?? []) {
    if (r.deleted) continue;
    if (instantsOf(String(r.record.punched_at), String(r.record.venue_tz)).length > 1) out.set(r.id, r.record);
  }
  return out;
}

function judgeCopy(c: CheckRecorder, run: ConnectorRun | undefined, truth: Snapshot, label: string): Map<string, CopyRow> {
  const rows = (outputRows<CopyRow>(run, COPY) ?? []).filter((r) => r && typeof r === "object");
  const byId = new Map(rows.map((r) => [String(r.punch_id), r]));
  const live = [...punches(truth)].filter(([, p]) => !p.deleted);
  const missing = live.filter(([id]) => !byId.has(id)).map(([id]) => id);
  const liveIds = new Set(live.map(([id]) => id));
  const extra = [...byId.keys()].filter((id) => !liveIds.has(id));
  const repeated = rows.length - byId.size;
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].punch_id) <= String(r.punch_id));
  const wrong = live.filter(([id, p]) => {
    const row = byId.get(id);
    return row && (["worker_id", "shift_id", "kind", "venue_tz"] as const).some((f) => row[f] !== p.record[f]);
  });
  const ok = !missing.length && !extra.length && !repeated && sorted && !wrong.length;
  c.check(`${label}_utc_copy_complete`, ok, {
    basis: BASES.copy,
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: ok
      ? `${live.length} punches, each once`
      : [
          missing.length && `${missing.length} of ${live.length} punches missing (${fewIds(missing)})`,
          extra.length && `${extra.length} rows that are no live punch (${fewIds(extra)})`,
          repeated && `${repeated} repeated`,
          !sorted && "not sorted by punch_id",
          wrong.length && `${wrong.length} rows whose fields differ from Rosterly's (${fewIds(wrong.map(([id]) => id))})`,
        ]
          .filter(Boolean)
          .join("; "),
  });
  return byId;
}

function judgeMoments(c: CheckRecorder, byId: Map<string, CopyRow>, truth: Snapshot): void {
  const wrong: string[] = [];
  let compared = 0;
  let sample = "";
  for (const [id, p] of punches(truth)) {
    const row = byId.get(id);
    if (p.deleted || !row) continue;
    compared += 1;
    const ms = zInstant(row.punched_utc);
    const ok = ms !== null && instantsOf(String(p.record.punched_at), String(p.record.venue_tz)).includes(ms);
    if (!ok) {
      wrong.push(id);
      if (!sample) sample = `${id}: ${JSON.stringify(row.punched_utc)} for ${String(p.record.punched_at)} ${String(p.record.venue_tz)}`;
    }
  }
  const ok = compared > 0 && !wrong.length;
  c.check("punch_moments_utc", ok, {
    basis: BASES.moment,
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: compared === 0 ? "no punch in the copy" : ok ? `${compared} punches at their moments` : `${wrong.length} of ${compared} punches at the wrong moment, e.g. ${sample}`,
  });
}

/** What the audit row of a legacy punch must hold, given the moment the copy chose for it. */
function expectedAudit(old: LegacyRow, now: { deleted: boolean; record: Record<string, unknown> } | undefined, chosen: CopyRow | undefined): string[] {
  const legacyValue = String(old.punched_at);
  if (!now || now.deleted) return [old.id, legacyValue, "", "", "gone"];
  const candidates = instantsOf(String(now.record.punched_at), String(now.record.venue_tz));
  const pickedMs = zInstant(chosen?.punched_utc);
  const ms = pickedMs !== null && candidates.includes(pickedMs) ? pickedMs : candidates[0];
  const minutes = Math.round((Date.parse(legacyValue) - ms) / 60_000);
  const status = candidates.length > 1 ? "ambiguous" : minutes !== 0 ? "moved" : "kept";
  return [old.id, legacyValue, String(ms), String(minutes), status];
}

function judgeAudit(c: CheckRecorder, run: ConnectorRun | undefined, legacy: LegacyRow[], truth: Snapshot, copy: Map<string, CopyRow>, label: string): void {
  const rows = (outputRows<AuditRow>(run, AUDIT) ?? []).filter((r) => r && typeof r === "object");
  const byId = new Map(rows.map((r) => [String(r.punch_id), r]));
  const now = punches(truth);
  const wrong: string[] = [];
  let sample = "";
  for (const old of legacy) {
    const id = old.id;
    const want = expectedAudit(old, now.get(id), copy.get(id));
    const row = byId.get(id);
    const gotMs = row?.punched_utc ? zInstant(row.punched_utc) : null;
    const momentOk = want[2] === "" ? row?.punched_utc === "" : gotMs !== null && String(gotMs) === want[2];
    const ok = row && row.legacy_punched_at === want[1] && momentOk && String(row.shift_minutes).trim() === want[3] && row.status === want[4];
    if (!ok) {
      wrong.push(id);
      if (!sample)
        sample = `${id}: want ${want[1]}, ${want[2] ? new Date(Number(want[2])).toISOString() : "(empty)"}, ${want[3] || "(empty)"}, ${want[4]}; got ${row ? [row.legacy_punched_at, row.punched_utc, row.shift_minutes, row.status].join(", ") : "no row"}`;
    }
  }
  const legacyIds = new Set(legacy.map((r) => r.id));
  const extra = [...byId.keys()].filter((id) => !legacyIds.has(id));
  const repeated = rows.length - byId.size;
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].punch_id) <= String(r.punch_id));
  const ok = legacy.length > 0 && !wrong.length && !extra.length && !repeated && sorted;
  const statuses = ["kept", "moved", "ambiguous", "gone"].map((s) => `${rows.filter((r) => r.status === s).length} ${s}`).join(", ");
  c.check(`${label}_audit_matches`, ok, {
    basis: BASES.audit,
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: ok
      ? `${legacy.length} legacy punches audited (${statuses})`
      : [
          wrong.length && `${wrong.length} of ${legacy.length} rows wrong or missing, e.g. ${sample}`,
          extra.length && `${extra.length} rows for punches the old copy did not hold (${fewIds(extra)})`,
          repeated && `${repeated} repeated`,
          !sorted && "not sorted by punch_id",
        ]
          .filter(Boolean)
          .join("; "),
  });
}

/** The note body the ticket asks for on an ambiguous punch. */
function noteBody(id: string, p: Record<string, unknown>): string {
  return `Clock change: please confirm the time of punch ${id} (${String(p.punched_at)} ${String(p.venue_tz)}).`;
}

/** The notes the runs filed: counted on the files at the end, strays read from the write log (no note filed before has such a body). */
function judgeNotes(c: CheckRecorder, e: ScenarioEvidence, end: Snapshot): void {
  const want = new Map([...ambiguousPunches(end)].map(([id, p]) => [`${String(p.worker_id)}|${noteBody(id, p)}`, id]));
  const onFile = new Map<string, number>();
  const badFields: string[] = [];
  for (const n of end.entities[NOTE] ?? []) {
    if (n.deleted) continue;
    const key = `${String(n.record.worker_id)}|${String(n.record.body)}`;
    if (!want.has(key)) continue;
    onFile.set(key, (onFile.get(key) ?? 0) + 1);
    if (n.record.visibility !== "managers" || n.record.author !== "Payroll migration") badFields.push(n.id);
  }
  const stray: string[] = [];
  for (const r of e.requests[ROLE] ?? []) {
    const m = /^\/api\/v3\/workers\/([^/]+)\/notes$/.exec(r.path);
    if (r.method !== "POST" || !m || r.status >= 400) continue;
    const body = r.body && typeof r.body === "object" ? (r.body as Record<string, unknown>).body : undefined;
    if (!want.has(`${decodeURIComponent(m[1])}|${String(body)}`)) stray.push(`#${r.seq}`);
  }
  const writes = (e.requests[ROLE] ?? []).filter((r) => r.method !== "GET" && r.path !== "/api/v3/session" && !/\/notes$/.test(r.path) && r.status < 400);
  const missing = [...want].filter(([k]) => !onFile.has(k)).map(([, id]) => id);
  const twice = [...onFile].filter(([, n]) => n > 1).map(([k]) => want.get(k)!);
  const ok = want.size > 0 && !missing.length && !twice.length && !stray.length && !badFields.length && !writes.length;
  c.check("clock_change_notes_once", ok, {
    basis: BASES.notes,
    pass: 2,
    fail: 0,
    mandatory: true,
    level: "l3",
    detail: ok
      ? `${want.size} ambiguous punches, one note each`
      : [
          missing.length && `${missing.length} of ${want.size} ambiguous punches without a note (${fewIds(missing)})`,
          twice.length && `${twice.length} punches noted more than once (${fewIds(twice)})`,
          stray.length && `${stray.length} notes filed that are no clock-change note of an ambiguous punch (requests ${fewIds(stray)})`,
          badFields.length && `${badFields.length} notes with the wrong visibility or author (${fewIds(badFields)})`,
          writes.length && `${writes.length} other writes to Rosterly`,
        ]
          .filter(Boolean)
          .join("; "),
  });
}

/** Whether the old job's copy is still the one it always wrote: Rosterly's stamp with a `Z`. */
function judgeLegacyUntouched(c: CheckRecorder, legacy: LegacyRow[], end: Snapshot): void {
  const now = punches(end);
  const changed = legacy.filter((r) => {
    const p = now.get(r.id);
    return p && r.punched_at !== `${String(p.record.punched_at)}Z`;
  });
  c.check("old_job_left_as_is", legacy.length > 0 && changed.length === 0, {
    basis: { ticket: "Leave it as it is: it runs until the cutover" },
    detail:
      legacy.length === 0
        ? "the old job left no copy"
        : changed.length
          ? `${changed.length} rows of the old copy are not what the old job wrote (${fewIds(changed.map((r) => r.id))})`
          : `${legacy.length} rows as the old job writes them`,
  });
}

export default defineTask({
  id: "task-0048",
  title: "Rosterly time-clock mirror moved to UTC storage, audited punch by punch, ambiguous clock-change punches noted once",
  kind: "migrate",
  roles: { [ROLE]: { vendor: "rosterly", checkpoint: LEGACY_NIGHT } },
  seed: 5,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "tz_storage_normalization_audit",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "migrate"] },
  outputs: { [LEGACY]: jsonRows(LegacyRow), [COPY]: jsonRows(CopyRow), [AUDIT]: csvRows(AUDIT_HEADER, AuditRow) },
  timeLimitS: 60,
  scenarios: [
    {
      // The old job's last night, then the cutover after the clocks went back: migrate (its
      // first note's answer lost after Rosterly committed it), then finance runs it again.
      name: "cutover",
      judge: (e, c) => {
        if (!commandsRanOk(c, "commands_ran", e, ["legacy"], [LEGACY])) return;
        if (!commandsRanOk(c, "migrate_commands_ran", e, ["migrate", "rerun"], FILES)) return;
        const legacy = (outputRows<LegacyRow>(byLabel(e, "legacy"), LEGACY) ?? []).filter((r) => r && typeof r === "object" && typeof r.id === "string");
        // Punches do not change between the two runs of migrate, only the notes it files.
        const end = e.snapshots.end[ROLE];
        judgeLegacyUntouched(c, legacy, end);
        const copy = judgeCopy(c, byLabel(e, "migrate"), end, "migrate");
        judgeMoments(c, copy, end);
        judgeAudit(c, byLabel(e, "migrate"), legacy, end, copy, "migrate");
        const rerunCopy = judgeCopy(c, byLabel(e, "rerun"), end, "rerun");
        judgeAudit(c, byLabel(e, "rerun"), legacy, end, rerunCopy, "rerun");
        judgeNotes(c, e, end);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Keep the password out of URLs and logs",
    no_secrets_echoed_to_vendor: "Keep the password out of URLs and logs",
    retry_after_honored: "when Rosterly asks the job to wait, wait as long as it asks.",
  },
});
