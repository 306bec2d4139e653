import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { commandsRanOk } from "../shared/command-runs.ts";
import { byLabel, fewIds, outputRows } from "../shared/judging.ts";

export const ROLE = "roster";
const ENTITY = "note";
const FILE = "case_notes.json";
/** Rosterly serves notes in the organisation's zone (declarations/vendors/rosterly.ts `clock.zone`). */
const ORG_ZONE = "Europe/London";
/**
 * The quota the API user shares with the payroll bureau's integration runs out part-way through
 * a night that reads every worker's notes list (declared in declarations/vendors/rosterly.ts).
 */
export const SHARED_QUOTA = "rl-shared-quota-429";
/** The bureau's integration bursts early in the night: Rosterly throttles a notes page for a second, whatever the job has sent. */
export const SHARED_BURST = "rl-shared-burst-429";
/**
 * Staff files are added while the night reads the staff list: after its first page the newest
 * workers move to the head, so an offset crawl that does not check its pages against the list's
 * `total` sees some workers twice and never reaches others (declarations/vendors/rosterly.ts).
 */
export const WORKERS_DRIFT = "rl-workers-drift";
/** A connection dropped part-way through one answer of the fan-out (a notes list): the read must be tried again, not end the night. */
export const FANOUT_RESET = "rl-fanout-reset";
/**
 * The night's checkpoint: notes written on the night the clocks go back (some in the hour the
 * clock shows twice), notes HR has deleted, and one deleted staff file (declarations/vendors/rosterly.ts timeline).
 */
export const NIGHT = 5;

const NoteRow = z.object({
  note_id: z.string(),
  worker_id: z.string(),
  author: z.string(),
  visibility: z.string(),
  body: z.string(),
  created_utc: z.string(),
  updated_utc: z.string(),
});
type NoteRow = z.infer<typeof NoteRow>;

const BASES = {
  whole: { ticket: "Each run copies every note on the file of every worker Rosterly holds, as Rosterly has it when the run ends." },
  fields: { ticket: "`note_id`, `worker_id`, `author`, `visibility` and `body` are Rosterly's, unchanged." },
  moments: {
    ticket: "`created_utc` and `updated_utc` are the moments the note was written and last edited, in UTC",
  },
  quota: { ticket: "so the job must not run the quota dry." },
};

const wallClock = new Intl.DateTimeFormat("en-CA", {
  timeZone: ORG_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** An instant as the organisation's wall clock reads it (`2025-06-14T23:41:09`). */
function onOrgClock(ms: number): string {
  const p = Object.fromEntries(wallClock.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/**
 * Whether `v` names, as an explicit instant (`Z` or an offset), a moment the
 * organisation's clock reads as `wall`. On the fall-back night a wall time
 * names two moments; either reading is accepted.
 */
function sameMoment(v: unknown, wall: unknown): boolean {
  if (typeof v !== "string" || typeof wall !== "string") return false;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(v)) return false;
  const ms = Date.parse(v);
  return !Number.isNaN(ms) && onOrgClock(ms) === wall;
}

function liveNotes(s: Snapshot): Map<string, Record<string, unknown>> {
  return new Map((s.entities[ENTITY] ?? []).filter((r) => !r.deleted).map((r) => [r.id, r.record]));
}

/**
 * Live notes on a deleted staff file: whether Rosterly still "holds" that worker the ticket
 * leaves open, so the copy may keep them or leave them out (if kept, they must be right).
 */
function notesOfDeletedWorkers(s: Snapshot, truth: Map<string, Record<string, unknown>>): Set<string> {
  const gone = new Set((s.entities.worker ?? []).filter((r) => r.deleted).map((r) => r.id));
  return new Set([...truth].filter(([, rec]) => gone.has(String(rec.worker_id))).map(([id]) => id));
}

interface Copy {
  rows: NoteRow[];
  byId: Map<string, NoteRow>;
}

function readCopy(run: ConnectorRun | undefined): Copy {
  const rows = (outputRows<NoteRow>(run, FILE) ?? []).filter((r) => r && typeof r === "object");
  return { rows, byId: new Map(rows.map((r) => [String(r.note_id), r])) };
}

/** Every live note once, nothing else, sorted. */
function judgeWhole(c: CheckRecorder, name: string, copy: Copy, truth: Map<string, Record<string, unknown>>, optional: Set<string>): void {
  const ids = copy.rows.map((r) => String(r.note_id));
  const missing = [...truth.keys()].filter((id) => !copy.byId.has(id) && !optional.has(id));
  const extra = [...copy.byId.keys()].filter((id) => !truth.has(id));
  const repeated = ids.length - copy.byId.size;
  const sorted = ids.every((id, i) => i === 0 || ids[i - 1] <= id);
  const ok = !missing.length && !extra.length && !repeated && sorted;
  const leftOut = [...optional].filter((id) => !copy.byId.has(id)).length;
  c.check(name, ok, {
    basis: BASES.whole,
    pass: 2,
    fail: 0,
    mandatory: true,
    level: "l3",
    detail: ok
      ? `${truth.size - leftOut} notes, each once${leftOut ? ` (${leftOut} notes of deleted staff files left out, which the ticket leaves open)` : ""}`
      : [
          missing.length && `${missing.length} of ${truth.size} notes missing (${fewIds(missing)})`,
          extra.length && `${extra.length} rows that are no note Rosterly holds (${fewIds(extra)})`,
          repeated && `${repeated} notes repeated`,
          !sorted && "not sorted by note_id",
        ]
          .filter(Boolean)
          .join("; "),
  });
}

/** The copied fields of the notes the copy holds, as Rosterly has them. */
function judgeFields(c: CheckRecorder, copy: Copy, truth: Map<string, Record<string, unknown>>): void {
  const wrong: string[] = [];
  let compared = 0;
  for (const [id, rec] of truth) {
    const row = copy.byId.get(id);
    if (!row) continue;
    compared += 1;
    if (["worker_id", "author", "visibility", "body"].some((f) => row[f as keyof NoteRow] !== rec[f])) wrong.push(id);
  }
  const ok = compared > 0 && wrong.length === 0;
  c.check("note_fields_match", ok, {
    basis: BASES.fields,
    mandatory: true,
    detail:
      compared === 0 ? "no note of Rosterly's in the copy" : wrong.length ? `${wrong.length} of ${compared} notes differ from Rosterly (${fewIds(wrong)})` : `${compared} notes as Rosterly has them`,
  });
}

/** The two moments of every copied note, as instants that read on the organisation's clock as Rosterly's stamps do. */
function judgeMoments(c: CheckRecorder, copy: Copy, truth: Map<string, Record<string, unknown>>): void {
  const wrong: string[] = [];
  let compared = 0;
  let sample = "";
  for (const [id, rec] of truth) {
    const row = copy.byId.get(id);
    if (!row) continue;
    compared += 1;
    const bad = !sameMoment(row.created_utc, rec.created_at) || !sameMoment(row.updated_utc, rec.updated_at);
    if (bad) {
      wrong.push(id);
      if (!sample) sample = `${id}: created_utc ${JSON.stringify(row.created_utc)} for a note Rosterly stamps ${String(rec.created_at)} (${ORG_ZONE})`;
    }
  }
  const ok = compared > 0 && wrong.length === 0;
  c.check("note_moments_utc", ok, {
    basis: BASES.moments,
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: compared === 0 ? "no note of Rosterly's in the copy" : wrong.length ? `${wrong.length} of ${compared} notes at the wrong moment, e.g. ${sample}` : `${compared} notes at the right moments`,
  });
}

/** Whether Rosterly ever had to refuse the job because it ran the shared quota dry (the bureau's burst is not the job's doing). */
function judgeQuota(c: CheckRecorder, e: ScenarioEvidence): void {
  const refused = (e.requests[ROLE] ?? []).filter((r) => r.status === 429 && r.faults.includes(SHARED_QUOTA));
  c.check("quota_not_run_dry", refused.length === 0, {
    basis: BASES.quota,
    level: "l2",
    detail: refused.length ? `${refused.length} requests refused with 429 once the quota ran out` : "no request refused for the quota",
  });
}

export default defineTask({
  id: "task-0054",
  title: "Rosterly case-note mirror silently short on a large organisation: a quota refusal read as an empty file",
  kind: "harden",
  roles: { [ROLE]: { vendor: "rosterly", checkpoint: NIGHT, scale: 1 } },
  seed: 11,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "subcollection_fanout_under_published_quota",
  entry: { command: ["node", "src/main.ts"], subcommands: ["mirror"] },
  outputs: { [FILE]: jsonRows(NoteRow) },
  timeLimitS: 120,
  scenarios: [
    {
      // A night on the whole group's organisation: the bureau's integration bursts early on
      // (a notes page is throttled for a second), the shared quota runs out part-way
      // through a night that reads every worker's notes list, staff files are added while the
      // staff list is paged, and one answer of the fan-out is cut off on the wire.
      name: "group_night",
      judge: (e, c) => {
        if (!commandsRanOk(c, "mirror_command_ran", e, ["night"], [FILE])) return;
        const truth = liveNotes(e.snapshots.night[ROLE]);
        const copy = readCopy(byLabel(e, "night"));
        judgeWhole(c, "every_note_once", copy, truth, notesOfDeletedWorkers(e.snapshots.night[ROLE], truth));
        judgeFields(c, copy, truth);
        judgeMoments(c, copy, truth);
        judgeQuota(c, e);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Keep credentials out of URLs and logs.",
    no_secrets_echoed_to_vendor: "Keep credentials out of URLs and logs.",
    retry_after_honored: "When Rosterly asks the job to wait, wait as long as it asks and carry on.",
  },
});
