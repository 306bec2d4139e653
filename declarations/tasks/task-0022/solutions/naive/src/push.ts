import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { type Candidate, explain, HireWire, Maintenance, newKey } from "./hirewire.ts";

interface Placement {
  ref: string;
  given_name: string;
  family_name: string;
  email: string;
  role: string;
  stages: string[];
}

interface ResultRow {
  ref: string;
  status: "done" | "refused" | "pending";
  candidate_id: number | null;
  stage: string | null;
  refused_at: string | null;
  error: string | null;
}

/**
 * Applies the agency file. HireWire is the record of what has been done: a
 * person already there (an earlier run) is not created again, and their chain
 * continues after the stage they are at.
 */
export async function push(config: Config): Promise<number> {
  const client = new HireWire(config);
  const file = JSON.parse(readFileSync(new URL("../input/placements.json", import.meta.url), "utf8")) as { placements: Placement[] };
  const placements = [...file.placements].sort((a, b) => (a.ref < b.ref ? -1 : 1));
  const byEmail = new Map((await client.listAll("/v1/candidates")).map((c) => [c.email.toLowerCase(), c]));
  const rows: ResultRow[] = [];
  let stopped = false;
  for (const p of placements) {
    const row: ResultRow = { ref: p.ref, status: "pending", candidate_id: null, stage: null, refused_at: null, error: null };
    rows.push(row);
    if (stopped) continue;
    try {
      let cand = byEmail.get(p.email.toLowerCase());
      if (!cand) {
        const a = await client.call("POST", "/v1/candidates", { body: { name: p.given_name, surname: p.family_name, email: p.email, role: p.role }, key: newKey() });
        if (a.status === 422) {
          Object.assign(row, { status: "refused", refused_at: "create", error: explain(a.body) });
          continue;
        }
        if (a.status >= 300) throw new Error(`create ${p.ref} answered ${a.status}`);
        cand = a.body as Candidate;
      }
      row.candidate_id = cand.id;
      row.stage = cand.stage;
      let refused = false;
      for (const stage of p.stages.slice(p.stages.indexOf(cand.stage) + 1)) {
        const a = await client.call("POST", `/v1/candidates/${cand.id}/stage`, { body: { stage }, key: newKey() });
        if (a.status === 422) {
          Object.assign(row, { status: "refused", refused_at: stage, error: explain(a.body) });
          refused = true;
          break;
        }
        if (a.status >= 300) throw new Error(`move ${p.ref} answered ${a.status}`);
        row.stage = (a.body as Candidate).stage;
      }
      if (!refused) row.status = "done";
    } catch (err) {
      if (!(err instanceof Maintenance)) throw err;
      stopped = true;
    }
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "push_result.json"), JSON.stringify(rows, null, 2));
  return stopped ? 75 : 0;
}
