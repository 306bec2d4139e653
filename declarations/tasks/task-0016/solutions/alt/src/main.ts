import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type Answer, GlobalHire } from "./globalhire.ts";

/** One row of the audit's repair queue. */
interface Repair {
  repair_id: string;
  kind: "restate" | "rebook";
  placement_id?: string;
  from_state?: string;
  to_state?: string;
  candidate_id?: string;
  agency_id?: string;
  client?: string;
  job_title?: string;
  work_location?: string;
  bill_rate?: number;
  currency?: string;
  state?: string;
}

interface ReportRow {
  repair_id: string;
  outcome: "applied" | "already_applied" | "conflict" | "rejected";
  reason: string | null;
  placement_id: string | null;
}

const BOOKED_FIELDS = ["candidate_id", "agency_id", "client", "job_title", "work_location", "bill_rate", "currency", "state"] as const;
/** What GlobalHire documents per batch call; the job learns the real cap from a 413. */
const DOCUMENTED_BATCH = 50;
const key = (candidate: unknown, client: unknown) => `${String(candidate)}|${String(client)}`;
const row = (r: Repair, outcome: ReportRow["outcome"], reason: string | null, placement_id: string | null): ReportRow => ({ repair_id: r.repair_id, outcome, reason, placement_id });

async function repair(): Promise<void> {
  const config = loadConfig();
  const gh = new GlobalHire(config);
  const queue = JSON.parse(readFileSync(new URL("../input/repair-queue.json", import.meta.url), "utf8")) as { repairs: Repair[] };
  const repairs = [...queue.repairs].sort((a, b) => (a.repair_id < b.repair_id ? -1 : 1));
  const report = new Map<string, ReportRow>();

  // Restates, in queue order. A placement the job has not written yet is read
  // (revalidated when the edge answers from its cache); one it wrote is decided
  // on GlobalHire's own answer to that write, with no read in between.
  const written = new Map<string, Answer>();
  for (const r of repairs.filter((x) => x.kind === "restate")) {
    const got = written.get(r.placement_id!) ?? (await gh.placement(r.placement_id!));
    if (got.status === 404 || got.status === 410 || (got.status === 200 && got.body.archived === true)) {
      report.set(r.repair_id, row(r, "rejected", "placement_not_found", r.placement_id!));
      continue;
    }
    if (got.status !== 200) throw new Error(`GET placement ${r.placement_id}: ${got.status}`);
    const state = got.body.state;
    if (state === r.to_state) report.set(r.repair_id, row(r, "already_applied", null, r.placement_id!));
    else if (state !== r.from_state) report.set(r.repair_id, row(r, "conflict", null, r.placement_id!));
    else {
      const put = await gh.setState(r.placement_id!, r.to_state!);
      if (put.status !== 200) throw new Error(`PATCH placement ${r.placement_id}: ${put.status}`);
      written.set(r.placement_id!, put.body && typeof put.body === "object" && "state" in put.body ? put : { ...put, body: { ...got.body, state: r.to_state } });
      report.set(r.repair_id, row(r, "applied", null, r.placement_id!));
    }
  }

  // Rebooks: joined with the candidate and with what GlobalHire already holds.
  const booked = new Map<string, string>();
  for (const p of await gh.allPlacements()) if (p.archived !== true && !booked.has(key(p.candidate_id, p.client))) booked.set(key(p.candidate_id, p.client), String(p.id));
  const candidates = new Map<string, "live" | "archived" | "missing">();
  const toBook: Repair[] = [];
  const sameAs = new Map<string, Repair>();
  for (const r of repairs.filter((x) => x.kind === "rebook")) {
    let c = candidates.get(r.candidate_id!);
    if (!c) {
      const got = await gh.candidate(r.candidate_id!);
      if (got.status === 404 || got.status === 410) c = "missing";
      else if (got.status === 200) c = got.body.archived === true ? "archived" : "live";
      else throw new Error(`GET candidate ${r.candidate_id}: ${got.status}`);
      candidates.set(r.candidate_id!, c);
    }
    if (c === "missing") report.set(r.repair_id, row(r, "rejected", "candidate_not_found", null));
    else if (c === "archived") report.set(r.repair_id, row(r, "rejected", "candidate_archived", null));
    else if (booked.has(key(r.candidate_id, r.client))) report.set(r.repair_id, row(r, "already_applied", null, booked.get(key(r.candidate_id, r.client))!));
    else {
      const first = toBook.find((x) => key(x.candidate_id, x.client) === key(r.candidate_id, r.client));
      if (first) sameAs.set(r.repair_id, first);
      else toBook.push(r);
    }
  }

  // Book in batches; a 413 halves the batch and the smaller size is kept for the rest.
  let size = DOCUMENTED_BATCH;
  for (let at = 0; at < toBook.length; ) {
    const chunk = toBook.slice(at, at + size);
    const sent = await gh.book(chunk.map((r) => Object.fromEntries(BOOKED_FIELDS.map((f) => [f, r[f]]))));
    if (sent.status === 413 && chunk.length > 1) {
      size = Math.max(1, Math.floor(chunk.length / 2));
      continue;
    }
    if (sent.status !== 207) throw new Error(`POST placements/batch: ${sent.status}`);
    for (const result of sent.body.results as { index: number; status: number; id?: string }[]) {
      const r = chunk[result.index];
      report.set(r.repair_id, result.status === 201 ? row(r, "applied", null, String(result.id)) : row(r, "rejected", "refused", null));
    }
    at += chunk.length;
  }
  for (const [id, first] of sameAs) {
    const r = repairs.find((x) => x.repair_id === id)!;
    const done = report.get(first.repair_id)!;
    report.set(id, done.outcome === "applied" ? row(r, "already_applied", null, done.placement_id) : { ...done, repair_id: id });
  }

  mkdirSync(config.outputDir, { recursive: true });
  const rows = [...report.values()].sort((a, b) => (a.repair_id < b.repair_id ? -1 : 1));
  writeFileSync(join(config.outputDir, "repair_report.json"), JSON.stringify(rows, null, 2) + "\n");
  console.log(`${rows.length} repairs reported; batches of ${size}`);
}

const command = process.argv[2];
if (command === "repair") await repair();
else {
  console.error("usage: node src/main.ts repair");
  process.exit(2);
}
