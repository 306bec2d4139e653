/**
 * Harness overhead of one agent attempt, without the model and without
 * grading: development world + workspace + proxy (setup), one sandbox start
 * running one command (agent), and writing the bundle. The model is the
 * scripted server on loopback, so its share is a millisecond or two.
 *
 *   node scripts/bench/attempt-overhead.ts [attempts]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTask } from "../../declarations/tasks/index.ts";
import { runAttempt } from "../agent/attempt.ts";
import { directLane } from "../agent/lanes/direct.ts";
import { startScriptedModel } from "../agent/model-server/server.ts";
import { Script } from "../agent/script.ts";
import { startLocalFarm } from "../farm/local-farm.ts";

const N = Number(process.argv[2] ?? 10);
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const farm = await startLocalFarm({ port: 0, adminToken: "bench" });
const handle = { url: farm.url, adminToken: "bench", close: async () => {} };
const out = mkdtempSync(join(tmpdir(), "wb-overhead-"));
const rows: { setup: number; agent: number; bundle: number; total: number }[] = [];
try {
  for (const taskId of ["task-0001", "task-0007"]) {
    const task = findTask(taskId)!.task;
    for (let i = 0; i < N; i++) {
      const script = Script.parse({
        name: "one-command",
        steps: [
          { kind: "bash", command: "true" },
          { kind: "done", text: "done" },
        ],
      });
      const server = await startScriptedModel(script);
      const started = performance.now();
      const s = await runAttempt({
        farm: handle,
        task,
        lane: directLane,
        modelLabel: "scripted:one-command",
        endpoint: { model: "scripted", baseUrl: server.url, apiKey: "sk-bench-0000000000", scripted: server },
        seed: task.seed,
        trial: i + 1,
        timeLimitS: 60,
        bundleDir: join(out, `${taskId}-${i}`),
        attemptId: `${taskId}-${i}`,
        secrets: [],
        versions: { wirebench: "bench", cli: "bench" },
        hashes: { task_tree: "-", harness: "-" },
        grade: false,
      });
      rows.push({ setup: s.timing.setup_s, agent: s.timing.agent_s, bundle: s.timing.bundle_s, total: (performance.now() - started) / 1000 });
    }
  }
} finally {
  await farm.stop();
  rmSync(out, { recursive: true, force: true });
}
const f = (n: number) => `${n.toFixed(3)} s`;
console.log(
  `attempt overhead over ${rows.length} attempts (p50): setup ${f(p50(rows.map((r) => r.setup)))}, one sandboxed command ${f(p50(rows.map((r) => r.agent)))}, bundle ${f(p50(rows.map((r) => r.bundle)))}, whole attempt without grading ${f(p50(rows.map((r) => r.total)))} (max ${f(Math.max(...rows.map((r) => r.total)))}); target < 3 s`,
);
