import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { HireWireClient, type Candidate } from "./hirewire.ts";

/** The pipeline hygiene rule: who must move, and where to. */
const TARGET = "rejected";
const needsCorrection = (c: Candidate) => c.rating === 1 && c.stage !== "rejected" && c.stage !== "hired";

interface Correction {
  candidate_id: number;
  from: string;
  to: string;
  ok: boolean;
}

async function correct(): Promise<void> {
  const config = loadConfig();
  const client = new HireWireClient(config);
  const backlog = (await client.listCandidates()).filter(needsCorrection).sort((a, b) => a.id - b.id);
  const results: Correction[] = [];
  for (const c of backlog) {
    const updated = await client.moveStage(c.id, TARGET);
    results.push({ candidate_id: c.id, from: c.stage, to: TARGET, ok: updated.stage === TARGET });
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "writeback_result.json"), JSON.stringify(results, null, 2));
  console.error(`${results.filter((r) => r.ok).length} of ${results.length} corrections applied`);
}

const command = process.argv[2];
if (command !== "correct") {
  console.error("usage: node src/main.ts correct");
  process.exit(2);
}
correct().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
