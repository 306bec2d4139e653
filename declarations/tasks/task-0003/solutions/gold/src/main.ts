import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/**
 * Idempotency keys of moves in flight, kept on disk until the run completes,
 * so a run restarted after a crash repeats a move under its first key (a
 * replay inside HireWire's window) instead of applying it a second time.
 */
class Journal {
  private readonly path: string;
  private readonly keys: Record<string, string>;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, ".stage-moves-journal.json");
    this.keys = existsSync(this.path) ? JSON.parse(readFileSync(this.path, "utf8")) : {};
  }

  keyFor(id: number, to: string): string {
    const slot = `${id}->${to}`;
    if (!this.keys[slot]) {
      this.keys[slot] = randomUUID();
      writeFileSync(this.path, JSON.stringify(this.keys));
    }
    return this.keys[slot];
  }

  close(): void {
    rmSync(this.path, { force: true });
  }
}

async function correct(): Promise<void> {
  const config = loadConfig();
  const client = new HireWireClient(config);
  const journal = new Journal(config.outputDir);
  const backlog = (await client.listCandidates()).filter(needsCorrection).sort((a, b) => a.id - b.id);
  const results: Correction[] = [];
  for (const c of backlog) {
    const outcome = await client.moveStage(c.id, TARGET, journal.keyFor(c.id, TARGET));
    if (!outcome.landed) console.error(`candidate ${c.id}: not moved (${outcome.detail})`);
    results.push({ candidate_id: c.id, from: c.stage, to: TARGET, ok: outcome.landed });
  }
  writeFileSync(join(config.outputDir, "writeback_result.json"), JSON.stringify(results, null, 2));
  journal.close();
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
