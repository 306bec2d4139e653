import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { GlobalHire } from "./globalhire.ts";

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

async function repair(): Promise<void> {
  const config = loadConfig();
  const gh = new GlobalHire(config);
  const queue = JSON.parse(readFileSync(new URL("../input/repair-queue.json", import.meta.url), "utf8")) as { repairs: Repair[] };
  const report = new Map<string, ReportRow>();
  const toBook: Repair[] = [];

  for (const r of queue.repairs) {
    if (r.kind === "restate") {
      const got = await gh.placement(r.placement_id!);
      if (got.status === 404) {
        report.set(r.repair_id, { repair_id: r.repair_id, outcome: "rejected", reason: "placement_not_found", placement_id: r.placement_id! });
        continue;
      }
      if (got.status !== 200) throw new Error(`GET placement ${r.placement_id}: ${got.status}`);
      const state = got.body.state;
      if (state === r.to_state) report.set(r.repair_id, { repair_id: r.repair_id, outcome: "already_applied", reason: null, placement_id: r.placement_id! });
      else if (state !== r.from_state) report.set(r.repair_id, { repair_id: r.repair_id, outcome: "conflict", reason: null, placement_id: r.placement_id! });
      else {
        const put = await gh.setState(r.placement_id!, r.to_state!);
        if (put.status !== 200) throw new Error(`PATCH placement ${r.placement_id}: ${put.status}`);
        report.set(r.repair_id, { repair_id: r.repair_id, outcome: "applied", reason: null, placement_id: r.placement_id! });
      }
    } else {
      const got = await gh.candidate(r.candidate_id!);
      if (got.status === 404) {
        report.set(r.repair_id, { repair_id: r.repair_id, outcome: "rejected", reason: "candidate_not_found", placement_id: null });
        continue;
      }
      if (got.status !== 200) throw new Error(`GET candidate ${r.candidate_id}: ${got.status}`);
      toBook.push(r);
    }
  }

  if (toBook.length) {
    const sent = await gh.book(toBook.map((r) => Object.fromEntries(BOOKED_FIELDS.map((f) => [f, r[f]]))));
    if (sent.status !== 207) throw new Error(`POST placements/batch: ${sent.status}`);
    for (const result of sent.body.results as { index: number; status: number; id?: string }[]) {
      const r = toBook[result.index];
      report.set(r.repair_id, { repair_id: r.repair_id, outcome: result.status === 201 ? "applied" : "rejected", reason: result.status === 201 ? null : "refused", placement_id: result.id ?? null });
    }
  }

  mkdirSync(config.outputDir, { recursive: true });
  const rows = [...report.values()].sort((a, b) => (a.repair_id < b.repair_id ? -1 : 1));
  writeFileSync(join(config.outputDir, "repair_report.json"), JSON.stringify(rows, null, 2) + "\n");
  console.log(`${rows.length} repairs reported`);
}

const command = process.argv[2];
if (command === "repair") await repair();
else {
  console.error("usage: node src/main.ts repair");
  process.exit(2);
}
