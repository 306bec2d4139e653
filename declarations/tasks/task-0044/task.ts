import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { ConnectorRun, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { csvRows } from "../../schema/output-contract.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { SHEET, STARTERS, type SheetLine, canonicalEmail } from "./sheet.ts";

export const ROLE = "crew";
/** The day the sheet is for: checkpoint 1 of CrewCall's timeline. */
export const CHECKPOINT = 1;
const REPORT = "topup_report.csv";
const HEADER = ["line", "gig_id", "worker_id", "assignment_id", "status"];

/** Faults the scenario arms (declared in declarations/vendors/crewcall.ts). */
export const FAULTS = [
  // The roster's seven newest workers move to the head of the list after its first page.
  "cc-summit-workers-drift",
  // The second page of assignments answers 502 once.
  "cc-assignments-502-page-2",
  // The second worker a bulk call creates is reported created, with a number, and never stored.
  "cc-bulk-worker-phantom",
  // The first single worker create is stored, then answered 502.
  "cc-worker-create-502-after-commit",
  // The third gig offer is stored, then answered 502.
  "cc-offer-502-after-commit",
  // An offer made before November (line 4's, from January) has lapsed when it is confirmed: 409 `offer_expired`, for good.
  "cc-offer-lapses-before-confirm",
  // The second gig offer is taken for later: 202 pending, the offer stored two requests on (CrewCall's docs on offerGig).
  "cc-offer-accepted-later",
  // The answer after the bulk create (gold's read-back of a reported starter) breaks off half-way: a dropped connection is retried, never taken for "no such worker".
  "cc-topup-after-bulk-cut",
  // The answer after the fifth request to the assignments path (gold's first gig offer, already stored) breaks off half-way: retried under the same Idempotency-Key, never left to the rerun.
  "cc-topup-offer-cut",
];

/** Assignment statuses that hold a confirmed booking. */
const CONFIRMED = new Set(["confirmed", "checked_in", "completed"]);
/** An offer that lapsed: it books nobody (CrewCall's docs), so it is no booking of anyone. */
const LAPSED = "expired";

const BASES = {
  exitOk: { ticket: "`topup` exits 0 when every line is settled." },
  oneAccount: { ticket: "Each new starter gets exactly one CrewCall account, however many lines of the sheet they are on and however many times the job runs." },
  details: { ticket: "Set new starters up with the sheet's names, email address, mobile number, home zone and role, in the form CrewCall's documentation asks for." },
  confirmed: { ticket: "Every person on the sheet ends up with a confirmed booking on their gig" },
  twice: { ticket: "Nobody is ever booked twice on the same gig, even when a run fails part-way and the scheduler runs the job again." },
  unknown: { ticket: "A line whose CrewCall number is not on CrewCall books nobody and creates nobody" },
  report: { ticket: "`topup_report.csv` under `OUTPUT_DIR`, one row per line of the sheet in the sheet's order" },
  rerun: { ticket: "Running the job again on the same sheet after a successful run writes nothing to CrewCall and writes the same report." },
  ownRun: { ticket: "The rerun is for CrewCall outages only: whatever else CrewCall answers, its documentation says what it means, and the run settles those lines itself." },
};

const live = (s: Snapshot, entity: string): SnapshotRecord[] => (s.entities[entity] ?? []).filter((r) => !r.deleted);
const idsOf = (s: Snapshot, entity: string): Set<string> => new Set((s.entities[entity] ?? []).map((r) => r.id));

/** Who each line's person is in CrewCall at `end`: the worker numbers that are theirs (none for an unknown number). */
function resolve(start: Snapshot, end: Snapshot): { workersOf: (l: SheetLine) => string[]; created: SnapshotRecord[]; byStarter: Map<string, SnapshotRecord[]> } {
  const known = new Set(live(start, "worker").map((r) => r.id));
  const before = idsOf(start, "worker");
  const created = live(end, "worker").filter((r) => !before.has(r.id));
  // A starter's accounts: those CrewCall had at the start under their email, and those made since.
  const byStarter = new Map<string, SnapshotRecord[]>();
  for (const email of Object.keys(STARTERS)) byStarter.set(email, []);
  for (const r of live(end, "worker")) {
    const list = byStarter.get(canonicalEmail(r.record.email));
    if (list) list.push(r);
  }
  return {
    workersOf: (l) => (l.person.kind === "returning" ? (known.has(l.person.number) ? [l.person.number] : []) : (byStarter.get(l.person.email) ?? []).map((r) => r.id)),
    created,
    byStarter,
  };
}

/** Live assignments of any of `workers` on `gig`. */
function bookings(s: Snapshot, gig: string, workers: string[]): SnapshotRecord[] {
  const who = new Set(workers);
  return live(s, "assignment").filter((a) => String(a.record.gig_id) === gig && who.has(String(a.record.worker_id)));
}

/** Lines whose person (a known one) holds no confirmed booking on the line's gig at `s`. */
function unbookedLines(s: Snapshot, workersOf: (l: SheetLine) => string[]): { people: number; unbooked: string[] } {
  const unbooked: string[] = [];
  let people = 0;
  for (const l of SHEET) {
    const workers = workersOf(l);
    if (l.person.kind === "returning" && !workers.length) continue;
    people += 1;
    if (!bookings(s, l.gig, workers).some((a) => CONFIRMED.has(String(a.record.status))))
      unbooked.push(`line ${l.line} (gig ${l.gig}, ${l.person.kind === "returning" ? l.person.number : l.person.email})`);
  }
  return { people, unbooked };
}

/** The report a run wrote against what CrewCall holds at `end`: what is wrong with it, or null. */
function reportProblem(run: ConnectorRun | undefined, end: Snapshot, workersOf: (l: SheetLine) => string[]): string | null {
  const raw = outputRows<Record<string, unknown>>(run, REPORT);
  if (!raw) return `${run?.label ?? "a run"}: no readable ${REPORT}`;
  const rows = objects(raw);
  if (rows.length !== SHEET.length) return `${run!.label}: ${rows.length} rows for ${SHEET.length} lines`;
  const wrong: string[] = [];
  SHEET.forEach((l, i) => {
    const r = rows[i];
    const workers = workersOf(l);
    const confirmed = bookings(end, l.gig, workers).filter((a) => CONFIRMED.has(String(a.record.status)));
    const gigOk = String(r.gig_id ?? "").trim() === l.gig && String(r.line ?? "").trim() === String(l.line);
    if (!gigOk) return wrong.push(`row ${i + 1} is not line ${l.line} of gig ${l.gig}`);
    if (!workers.length && l.person.kind === "returning") {
      if (r.status !== "unknown_worker" || String(r.worker_id ?? "") !== "" || String(r.assignment_id ?? "") !== "") wrong.push(`line ${l.line}: want unknown_worker with empty numbers`);
      return;
    }
    const worker = String(r.worker_id ?? "").trim();
    const assignment = String(r.assignment_id ?? "").trim();
    if (r.status !== "booked") return wrong.push(`line ${l.line}: status ${String(r.status)}, want booked`);
    if (!workers.includes(worker)) return wrong.push(`line ${l.line}: worker ${worker || "(empty)"} is not the line's person (${fewIds(workers) || "none"})`);
    const held = confirmed.find((a) => a.id === assignment);
    if (!held || String(held.record.worker_id) !== worker) wrong.push(`line ${l.line}: assignment ${assignment || "(empty)"} is not ${worker}'s confirmed booking on gig ${l.gig}`);
  });
  return wrong.length ? `${run!.label}: ${wrong.length} lines wrong (${fewIds(wrong)})` : null;
}

export default defineTask({
  id: "task-0044",
  title:
    "Kestrel weekly crew top-up: new starters set up once, every line booked and confirmed exactly once through a drifting roster, a lying 207, 5xx after commit, answers that break off and a rerun",
  kind: "harden",
  roles: { [ROLE]: { vendor: "crewcall", checkpoint: CHECKPOINT, scale: 1 } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "drift_5xx_dup_writeback_compose",
  entry: { command: ["node", "src/main.ts"], subcommands: ["topup"] },
  outputs: {
    [REPORT]: csvRows(
      HEADER,
      z.looseObject({
        line: z.string().regex(/^\d+$/),
        gig_id: z.string().regex(/^\d+$/),
        worker_id: z.string().regex(/^\d*$/),
        assignment_id: z.string().regex(/^\d*$/),
        status: z.enum(["booked", "unknown_worker"]),
      }),
    ),
  },
  timeLimitS: 60,
  scenarios: [
    {
      // The week's sheet under a drifting roster, a 502 page, a phantom in the 207, writes
      // answered 502 after they committed and two answers cut off part-way (a read-back after the
      // bulk create and a stored offer's answer); then the scheduler runs it again.
      name: "topup_then_rerun",
      judge: (e, c) => {
        const first = byLabel(e, "topup");
        const again = byLabel(e, "topup_again");
        const start = e.snapshots.start[ROLE];
        const afterFirst = e.snapshots.after_first[ROLE];
        const end = e.snapshots.end[ROLE];
        const firstOk = plumbing(c, "topup_exit_ok", first, [REPORT], BASES.exitOk);
        plumbing(c, "rerun_exit_ok", again, [REPORT], BASES.exitOk);
        const { workersOf, created, byStarter } = resolve(start, end);

        // 1. One account per starter, none for anyone else.
        const hadAtStart = idsOf(start, "worker");
        const starterProblems: string[] = [];
        for (const [email, accounts] of byStarter) if (accounts.length !== 1) starterProblems.push(`${email} has ${accounts.length} accounts`);
        const stray = created.filter((r) => !byStarter.has(canonicalEmail(r.record.email)));
        c.check("one_account_per_starter", starterProblems.length === 0, {
          basis: BASES.oneAccount,
          pass: 2,
          fail: 0,
          mandatory: true,
          detail: starterProblems.length ? fewIds(starterProblems) : `${byStarter.size} starters, one account each`,
        });
        c.check("unknown_number_creates_and_books_nobody", stray.length === 0, {
          basis: BASES.unknown,
          pass: 1,
          fail: 0,
          mandatory: true,
          detail: stray.length
            ? `${stray.length} accounts created for no starter on the sheet (${fewIds(stray.map((r) => `${r.id} ${String(r.record.email)}`))})`
            : "no account created beyond the starters",
        });

        // 2. Every line's person holds a confirmed booking on its gig.
        const { people, unbooked } = unbookedLines(end, workersOf);
        c.check("every_line_booked_and_confirmed", people > 0 && unbooked.length === 0, {
          basis: BASES.confirmed,
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: unbooked.length ? `${unbooked.length} lines without a confirmed booking: ${fewIds(unbooked)}` : `${people} lines, each person holding a confirmed booking on the gig`,
        });

        // 2b. The first run settled every line itself: only an outage is left to the rerun, and this scenario has none that lasts.
        const firstUnbooked = unbookedLines(afterFirst, workersOf).unbooked;
        c.check("first_run_settles_every_line", firstOk && firstUnbooked.length === 0, {
          basis: BASES.ownRun,
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: !firstOk
            ? "the first run did not finish (no CrewCall failure in this scenario lasts)"
            : firstUnbooked.length
              ? `after the first run ${firstUnbooked.length} lines had no confirmed booking: ${fewIds(firstUnbooked)}`
              : "the first run settled every line",
        });

        // 3. Nobody twice on a gig: per person (all their accounts), per gig, no more live bookings than one (or than CrewCall already had).
        const twice: string[] = [];
        const seen = new Set<string>();
        for (const l of SHEET) {
          const workers = workersOf(l);
          const key = `${l.gig}|${workers.join("+")}`;
          if (!workers.length || seen.has(key)) continue;
          seen.add(key);
          const now = bookings(end, l.gig, workers).filter((a) => a.record.status !== LAPSED).length;
          const had = bookings(start, l.gig, workers).filter((a) => a.record.status !== LAPSED).length;
          if (now > Math.max(1, had)) twice.push(`gig ${l.gig}: ${fewIds(workers)} booked ${now} times`);
        }
        const sheetPairs = new Set(SHEET.flatMap((l) => workersOf(l).map((w) => `${l.gig}|${w}`)));
        const hadAssignments = idsOf(start, "assignment");
        const elsewhere = live(end, "assignment").filter((a) => !hadAssignments.has(a.id) && !sheetPairs.has(`${String(a.record.gig_id)}|${String(a.record.worker_id)}`));
        c.check("nobody_booked_twice", twice.length === 0 && elsewhere.length === 0, {
          basis: BASES.twice,
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: twice.length
            ? `${twice.length} people booked more than once on a gig: ${fewIds(twice)}`
            : elsewhere.length
              ? `${elsewhere.length} assignments created that no line asks for (${fewIds(elsewhere.map((a) => `${a.id}: gig ${String(a.record.gig_id)} worker ${String(a.record.worker_id)}`))})`
              : `${seen.size} bookings, none doubled`,
        });

        // 4. The reports of both runs name each line's person and confirmed booking.
        const problems = [first, again].map((run) => reportProblem(run, end, workersOf)).filter((p) => p !== null);
        c.check("report_names_each_booking", problems.length === 0, {
          basis: BASES.report,
          pass: 2,
          fail: 0,
          mandatory: true,
          detail: problems.length ? problems.join("; ") : `both runs reported ${SHEET.length} lines as CrewCall holds them`,
        });

        // 5. The rerun wrote nothing.
        const newSince = (entity: string) => live(end, entity).filter((r) => !idsOf(afterFirst, entity).has(r.id)).length;
        const firstStatus = new Map(live(afterFirst, "assignment").map((a) => [a.id, a.record.status]));
        const moved = live(end, "assignment").filter((a) => firstStatus.has(a.id) && firstStatus.get(a.id) !== a.record.status).length;
        const rerunWrites = newSince("worker") + newSince("assignment") + moved;
        c.check("rerun_writes_nothing", firstOk && rerunWrites === 0, {
          basis: BASES.rerun,
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: !firstOk
            ? "the first run did not finish, so the rerun had work to do"
            : rerunWrites
              ? `the rerun created ${newSince("worker")} workers and ${newSince("assignment")} assignments and moved ${moved} assignments`
              : "the rerun wrote nothing",
        });

        // 6. Starters set up as the documentation asks (soft: CrewCall stores what it is sent).
        const off: string[] = [];
        for (const [email, accounts] of byStarter) {
          const want = STARTERS[email];
          for (const r of accounts.filter((a) => !hadAtStart.has(a.id))) {
            const bad = Object.entries(want).filter(([f, v]) => String(r.record[f] ?? "").trim() !== v);
            if (bad.length) off.push(`${email}: ${bad.map(([f]) => `${f} ${JSON.stringify(r.record[f])}`).join(", ")}`);
          }
        }
        c.check("starters_set_up_as_documented", byStarter.size > 0 && [...byStarter.values()].every((a) => a.length > 0) && off.length === 0, {
          basis: BASES.details,
          pass: 1,
          fail: 0,
          detail: off.length ? `${off.length} accounts differ from the sheet: ${fewIds(off)}` : "every starter's account carries the sheet's details, mobile in E.164 and role in CrewCall's words",
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "when it asks us to wait, wait as long as it asks",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
    idempotent_write_retries: "Nobody is ever booked twice on the same gig",
  },
});
