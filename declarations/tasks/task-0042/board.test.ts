import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../../evidence/verdict.ts";
import { otherSeedsOf } from "../../../scripts/cli/commands/validate.ts";
import { buildState } from "../../../workers/engine/data/generate.ts";
import { serializeRecord } from "../../../workers/engine/protocol/serialize.ts";
import { VENDORS } from "../../vendors/index.ts";
import { expectedBoard, morningOf, type Window } from "./board-truth.ts";
import task, { AVAILABILITY_DRIFT, OFFERS_LAPSED, ROLE, SATURDAY, TUESDAY } from "./task.ts";

const CREWCALL = VENDORS.crewcall;
const CALENDARS = ["availability", "block", "booking"];
/** The most records a CrewCall page holds (`limit` is clamped to it). */
const MAX_PAGE = CREWCALL.paging.maxLimit;
const MORNINGS = [TUESDAY, SATURDAY].map((d) => morningOf(d)!);
const SEEDS = [task.seed, ...otherSeedsOf(task.seed, 5)];

/** The availability posts that move to the head of the list while Tuesday's board reads it (the armed page drift). */
const DRIFTED = (() => {
  const f = CREWCALL.faults.find((x) => x.id === AVAILABILITY_DRIFT);
  if (f?.kind !== "page-drift" || f.resource !== "availability") throw new Error(`${AVAILABILITY_DRIFT} is not a page drift of availability`);
  return f.inserts;
})();

/**
 * CrewCall as the task's role starts on `seed`, each list in its order; `firstPageOnly` keeps the first page of each calendar,
 * `singleCrawl` leaves out the availability posts a single offset crawl steps over when the drift moves them to the head.
 */
function snapshotOf(seed: number, firstPageOnly = false, singleCrawl = false): Snapshot {
  const { checkpoint, scale } = task.roles[ROLE];
  const state = buildState(CREWCALL, seed, checkpoint, scale).sort((a, b) => a.seq - b.seq);
  const entities: Snapshot["entities"] = {};
  for (const r of CREWCALL.resources) {
    const rows = state.filter((x) => x.entity === r.name);
    const kept = firstPageOnly && CALENDARS.includes(r.name) ? rows.slice(0, MAX_PAGE) : singleCrawl && r.name === "availability" ? rows.slice(0, -DRIFTED) : rows;
    entities[r.name] = kept.map((x) => ({ id: x.id, deleted: x.deletedMs !== null, record: serializeRecord(CREWCALL, r, x, new URLSearchParams()) }));
  }
  return { checkpoint, epoch: 0, entities };
}

/** How many unanswered offers lapse as each board starts (the armed lapse-at-trigger of bookings). */
const LAPSED = (() => {
  const f = CREWCALL.faults.find((x) => x.id === OFFERS_LAPSED);
  if (f?.kind !== "lapse-at-trigger" || f.resource !== "booking" || f.from !== "held" || f.to !== "expired") throw new Error(`${OFFERS_LAPSED} is not a lapse of held bookings`);
  return f.count;
})();

/**
 * `s` with the oldest held bookings in list order lapsed as the fault lapses them: `expired` (the truth), or read as the
 * previous reader did (`taken`: every booking not released keeps its time), or with the offers still open read as free
 * (`held-free`: only the lapsed ones stay expired, every other held booking released).
 */
function lapsed(s: Snapshot, read: "expired" | "taken" | "held-free"): Snapshot {
  let left = LAPSED;
  const booking = (s.entities.booking ?? []).map((r) => {
    if (r.deleted || r.record.status !== "held") return r;
    if (left > 0) {
      left -= 1;
      return { ...r, record: { ...r.record, status: read === "taken" ? "booked" : "expired" } };
    }
    return read === "held-free" ? { ...r, record: { ...r.record, status: "released" } } : r;
  });
  return { ...s, entities: { ...s.entities, booking } };
}

const keys = (ws: Window[]) => ws.map((w) => `${w.worker} ${w.start}-${w.end}`).join("\n");

/** Windows that only exist because two availability posts meet: the join is inside the window and no post runs across it. */
function joinedAtTouch(s: Snapshot, board: Window[]): Window[] {
  const posts = (s.entities.availability ?? [])
    .filter((r) => !r.deleted)
    .map((r) => ({ worker: String(r.record.worker_id), start: Date.parse(String(r.record.starts_at)), minutes: Number(r.record.duration_minutes) }));
  const spans = posts.map((p) => ({ worker: p.worker, start: p.start, end: p.start + p.minutes * 60_000 }));
  return board.filter((w) =>
    spans.some(
      (a) =>
        a.worker === w.worker &&
        a.end > w.start &&
        a.end < w.end &&
        spans.some((b) => b.worker === w.worker && b.start === a.end) &&
        !spans.some((c) => c.worker === w.worker && c.start < a.end && c.end > a.end),
    ),
  );
}

describe("task-0042's grading worlds", () => {
  it("hold more availability posts than one page, so one page of each calendar misses part of a morning's board on every graded seed", () => {
    expect((snapshotOf(task.seed).entities.availability ?? []).length).toBeGreaterThan(MAX_PAGE);
    for (const seed of SEEDS) {
      const full = snapshotOf(seed);
      const onePage = snapshotOf(seed, true);
      const differs = MORNINGS.filter((m) => keys(expectedBoard(full, m)) !== keys(expectedBoard(onePage, m)));
      expect(differs.length, `seed ${seed}`).toBeGreaterThanOrEqual(1);
    }
  });

  it("lose part of a morning's board on every graded seed to a single crawl of availability that the drift steps over", () => {
    for (const seed of SEEDS) {
      const full = snapshotOf(seed);
      const crawled = snapshotOf(seed, false, true);
      const differs = MORNINGS.filter((m) => keys(expectedBoard(full, m)) !== keys(expectedBoard(crawled, m)));
      expect(differs.length, `seed ${seed}`).toBeGreaterThanOrEqual(1);
    }
  });

  it("free time on a board of the task's own seed and of a third of the graded seeds through the lapsed offers, while offers still open keep theirs", () => {
    const changes = (seed: number, read: "taken" | "held-free") => {
      const truth = lapsed(snapshotOf(seed), "expired");
      const other = lapsed(snapshotOf(seed), read);
      return MORNINGS.filter((m) => keys(expectedBoard(truth, m)) !== keys(expectedBoard(other, m))).length;
    };
    expect(changes(task.seed, "taken")).toBeGreaterThanOrEqual(1);
    expect(changes(task.seed, "held-free")).toBeGreaterThanOrEqual(1);
    expect(SEEDS.filter((seed) => changes(seed, "taken") > 0).length).toBeGreaterThanOrEqual(SEEDS.length / 3);
  });

  it("put a bookable stretch made of two availability posts that meet on a board of the task's own seed and of half the graded seeds", () => {
    const joined = (seed: number) => {
      const s = snapshotOf(seed);
      return MORNINGS.flatMap((m) => joinedAtTouch(s, expectedBoard(s, m))).length;
    };
    expect(joined(task.seed)).toBeGreaterThanOrEqual(1);
    expect(SEEDS.filter((seed) => joined(seed) > 0).length).toBeGreaterThanOrEqual(SEEDS.length / 2);
  });
});
