import { ClassicClient } from "./classic.ts";
import { loadConfig } from "./config.ts";
import { readJson, readMirror, toRow, writeJson, writeMirror } from "./mirror.ts";

/** What the Classic job keeps between nights: Bullpen's clock when its last finished run began. */
interface ClassicState {
  watermark: string | null;
}

const CLASSIC_STATE = "classic-state.json";
const LISTS = [
  { operation: "CandidateSearch", tag: "candidate", file: "candidates.json" },
  { operation: "ApplicationSearch", tag: "application", file: "applications.json" },
];

/** The nightly Classic sync: candidates and applications changed since the last finished run. */
async function classicSync(): Promise<void> {
  const config = loadConfig();
  const client = new ClassicClient(config);
  const state = readJson<ClassicState>(config.outputDir, CLASSIC_STATE) ?? { watermark: null };
  let startedAt: string | null = null;
  for (const list of LISTS) {
    const rows = state.watermark ? readMirror(config.outputDir, list.file) : new Map();
    const records = await client.search(list.operation, list.tag, state.watermark, (t) => {
      startedAt ??= t;
    });
    for (const r of records) rows.set(String(r.id), toRow(r));
    writeMirror(config.outputDir, list.file, rows);
    console.error(`${list.operation}: ${records.length} records`);
  }
  writeJson(config.outputDir, CLASSIC_STATE, { watermark: startedAt ?? state.watermark });
}

const command = process.argv[2];
const run =
  command === "classic-sync"
    ? classicSync
    : command === "sync"
      ? async () => {
          throw new Error("sync (OAuth) is not written yet");
        }
      : null;
if (!run) {
  console.error("usage: node src/main.ts classic-sync | sync");
  process.exit(2);
}
run().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
