import { z } from "zod";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { defineTask } from "../../schema/task.ts";
import { commandsRanOk } from "../shared/command-runs.ts";
import { byLabel, fewIds, outputRows } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { SIGNUPS, type Signup } from "./signups.ts";

export const CREW = "crew";
export const SOURCE = "source";
/**
 * Sourcewell two checkpoints on (declarations/vendors/sourcewell.ts timeline): three profiles deleted
 * since the agency sourced its people, and 104 live profiles, so the newest (tl_00104 to tl_00107,
 * one of them on the file) sit past the first 100 on every seed: a second page at any page size.
 */
export const SOURCE_CHECKPOINT = 2;
/** CrewCall answers the first worker creation 502 after it committed it (declarations/vendors/crewcall.ts). */
export const CREATE_502 = "cc-worker-create-502-after-commit";
const REPORT = "import_report.json";
const ROLES_OF_CREWCALL = "primary_role";

const ReportRow = z.object({ row: z.number().int().positive(), sourcewell_id: z.string().nullable(), worker_id: z.union([z.number().int(), z.string()]).nullable() });
type ReportRow = z.infer<typeof ReportRow>;

const BASES = {
  once: { ticket: "create one CrewCall worker per person, however many rows name them" },
  fields: {
    ticket:
      "with the first name, last name, email and mobile of their Sourcewell profile (no mobile when the profile has none). The role and the zone they work in are the agency's: take `role` and `zone` from the person's latest row by `signed_up`.",
  },
  report: { ticket: "an array with one row per row of the file, in the file's order" },
  rerun: { ticket: "a rerun of the same file creates nobody again." },
};

/** An id as Sourcewell writes it (`tl_` and five digits), from the ways the agency copies it; null when it is none. */
export function canonicalId(typed: string): string | null {
  const m = /^\s*(?:tl)?[\s_-]*(\d{1,5})\s*$/i.exec(typed);
  return m ? `tl_${m[1].padStart(5, "0")}` : null;
}

/** Minutes since the epoch of a `signed_up` as the agency types it (`2025-01-06 09:12`, `2025-01-07 8:20`): an hour may lack its leading zero, so the text does not sort. */
export function signedUpAt(typed: string): number {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})\s*$/.exec(typed);
  if (!m) throw new Error(`signed_up ${JSON.stringify(typed)} is not a stamp the file uses`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) / 60_000;
}

const digits = (s: unknown) => String(s ?? "").replace(/\D/g, "");

/** The live profile a row names, by id or else by email or else by mobile. */
function profileOf(s: Signup, profiles: SnapshotRecord[]): SnapshotRecord | null {
  if (s.sourcewell_id.trim()) {
    const id = canonicalId(s.sourcewell_id);
    return profiles.find((p) => p.id === id) ?? null;
  }
  const email = s.email.trim().toLowerCase();
  if (email) return profiles.find((p) => String(p.record.em ?? "").toLowerCase() === email) ?? null;
  const mobile = digits(s.mobile);
  if (mobile) return profiles.find((p) => digits(p.record.ph) === mobile) ?? null;
  return null;
}

/** A CrewCall role from the way the agency writes it. */
const roleOf = (typed: string) =>
  typed
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");

interface Person {
  profile: SnapshotRecord;
  latest: Signup;
}

/** Per row the profile it names (or null), and per profile the person to create. */
function expected(source: Snapshot): { rows: (string | null)[]; people: Map<string, Person> } {
  const live = (source.entities.talent ?? []).filter((r) => !r.deleted);
  const people = new Map<string, Person>();
  const rows = SIGNUPS.map((s) => {
    const p = profileOf(s, live);
    if (!p) return null;
    const had = people.get(p.id);
    if (!had || signedUpAt(s.signed_up) > signedUpAt(had.latest.signed_up)) people.set(p.id, { profile: p, latest: s });
    return p.id;
  });
  return { rows, people };
}

const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();

/** Workers in `after` that `before` did not have. */
function newWorkers(before: Snapshot, after: Snapshot): SnapshotRecord[] {
  const had = new Set((before.entities.worker ?? []).map((r) => r.id));
  return (after.entities.worker ?? []).filter((r) => !r.deleted && !had.has(r.id));
}

/** The created workers against the people: one each, none else, and each with the profile's identity and the agency's role and zone. */
function judgeCreated(c: CheckRecorder, people: Map<string, Person>, created: SnapshotRecord[]): Map<string, string> {
  const byEmail = new Map<string, SnapshotRecord[]>();
  for (const w of created) byEmail.set(emailKey(w.record.email), [...(byEmail.get(emailKey(w.record.email)) ?? []), w]);
  const want = new Map([...people.values()].map((p) => [emailKey(p.profile.record.em), p]));
  const missing = [...want].filter(([e]) => !byEmail.has(e)).map(([, p]) => p.profile.id);
  const twice = [...byEmail].filter(([e, ws]) => want.has(e) && ws.length > 1).map(([, ws]) => ws[0].id);
  const stray = [...byEmail].filter(([e]) => !want.has(e)).flatMap(([, ws]) => ws.map((w) => w.id));
  c.check("each_person_created_once", !missing.length && !twice.length && !stray.length, {
    basis: BASES.once,
    pass: 2,
    mandatory: true,
    detail:
      [
        missing.length && `${missing.length} people without a worker (${fewIds(missing)})`,
        twice.length && `${twice.length} people created more than once (workers ${fewIds(twice)})`,
        stray.length && `${stray.length} workers created for no person of the file, or under another email (${fewIds(stray)})`,
      ]
        .filter(Boolean)
        .join("; ") || `${want.size} people, one worker each`,
  });
  const wrong: string[] = [];
  const workerOf = new Map<string, string>();
  for (const [email, p] of want) {
    const w = byEmail.get(email)?.[0];
    if (!w) continue;
    workerOf.set(p.profile.id, w.id);
    const r = w.record;
    const ph = p.profile.record.ph;
    const mobileOk = ph === null || ph === undefined ? r.mobile === null || r.mobile === undefined || r.mobile === "" : digits(r.mobile) === digits(ph);
    const ok =
      r.first_name === p.profile.record.fn &&
      r.last_name === p.profile.record.ln &&
      r.email === p.profile.record.em &&
      mobileOk &&
      r[ROLES_OF_CREWCALL] === roleOf(p.latest.role) &&
      r.home_zone === p.latest.zone.trim();
    if (!ok) wrong.push(`${w.id} (${p.profile.id})`);
  }
  c.check("workers_carry_profile_and_latest_row", wrong.length === 0 && workerOf.size === want.size, {
    basis: BASES.fields,
    mandatory: true,
    detail: wrong.length ? `${wrong.length} workers differ from the profile or the latest row (${fewIds(wrong)})` : `${workerOf.size} of ${want.size} workers checked`,
  });
  return workerOf;
}

/** The report of a run against the rows' profiles and the workers created for them. */
function judgeReport(c: CheckRecorder, name: string, run: ConnectorRun | undefined, rows: (string | null)[], workerOf: Map<string, string>): void {
  const got = objects(outputRows<ReportRow>(run, REPORT));
  const bad: number[] = [];
  rows.forEach((id, i) => {
    const r = got[i];
    const worker = id ? (workerOf.get(id) ?? "?") : null;
    const ok = r && r.row === i + 1 && r.sourcewell_id === id && (worker === null ? r.worker_id === null : r.worker_id !== null && String(r.worker_id) === worker);
    if (!ok) bad.push(i + 1);
  });
  const ok = got.length === rows.length && !bad.length;
  c.check(name, ok, {
    basis: BASES.report,
    mandatory: true,
    detail: ok
      ? `${rows.length} rows, ${rows.filter((r) => r === null).length} not imported`
      : [got.length !== rows.length && `${got.length} rows for a file of ${rows.length}`, bad.length && `rows ${fewIds(bad)} wrong`].filter(Boolean).join("; "),
  });
}

export default defineTask({
  id: "task-0041",
  title: "Harbour Temps sign-ups into CrewCall workers: rows resolved to Sourcewell profiles, each person created once",
  kind: "build",
  roles: { [CREW]: { vendor: "crewcall", checkpoint: 0 }, [SOURCE]: { vendor: "sourcewell", checkpoint: SOURCE_CHECKPOINT } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "intra_file_dedupe_canonicalize",
  entry: { command: ["node", "src/main.ts"], subcommands: ["import"] },
  outputs: { [REPORT]: jsonRows(ReportRow) },
  timeLimitS: 40,
  scenarios: [
    {
      // The week's file imported, CrewCall losing the answer to the first creation; then the same file again.
      name: "weekly_import",
      judge: (e, c) => {
        if (!commandsRanOk(c, "import_commands_ran", e, ["import", "rerun"], [REPORT])) return;
        const { rows, people } = expected(e.snapshots.before[SOURCE]);
        const created = newWorkers(e.snapshots.before[CREW], e.snapshots.end[CREW]);
        const workerOf = judgeCreated(c, people, created);
        judgeReport(c, "report_matches", byLabel(e, "import"), rows, workerOf);
        // Workers the first run did not report: what the rerun created (a person created twice is the check above's).
        const reported = new Set(objects(outputRows<ReportRow>(byLabel(e, "import"), REPORT)).map((r) => String(r.worker_id)));
        const again = created.filter((w) => !reported.has(w.id));
        c.check("rerun_creates_nobody", again.length === 0, {
          basis: BASES.rerun,
          pass: 2,
          mandatory: true,
          detail: again.length
            ? `${again.length} workers not in the first run's report, created by the rerun (${fewIds(again.map((w) => w.id))})`
            : "every worker created is one the first run reported",
        });
        judgeReport(c, "rerun_report_matches", byLabel(e, "rerun"), rows, workerOf);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials are in the environment",
    no_secrets_echoed_to_vendor: "Credentials are in the environment",
  },
});
