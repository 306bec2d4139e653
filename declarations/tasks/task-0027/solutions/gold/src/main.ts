import { BullpenClient } from "./bullpen.ts";
import { ClassicClient } from "./classic.ts";
import { loadConfig } from "./config.ts";
import { type Row, readJson, readMirror, toRow, writeJson, writeMirror } from "./mirror.ts";

/** What the Classic job keeps between nights: Bullpen's clock when its last finished run began. */
interface ClassicState {
  watermark: string | null;
}

const CLASSIC_STATE = "classic-state.json";
const SYNC_STATE = "sync-state.json";
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

/**
 * Where each entity is read. Candidates from v2. Applications from v1: v2's list
 * loses the first record of every page after the first, and v1 (which Bullpen keeps
 * for existing integrations) returns them all, with the same filter and cursor.
 */
const SOURCES = [
  { entity: "candidate", file: "candidates.json", path: "/api/v2/candidates" },
  { entity: "application", file: "applications.json", path: "/api/v1/applications" },
];

/** Bullpen's integer fields (its API reference); every other value is a string, a timestamp or null. */
const INTEGER_FIELDS = new Set(["bill_rate_cents"]);

/**
 * A record or row as Bullpen types it. The Classic job keeps what Classic sends, as text:
 * an empty element (a null in Bullpen) became "", a number became its digits.
 */
function typed(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v === "" ? null : INTEGER_FIELDS.has(k) && typeof v === "string" ? Number(v) : v]));
}

/**
 * The OAuth sync. Its first run carries on from the Classic job's last finished
 * run (its watermark and its files); from then on it keeps its own watermark, which
 * moves only when every list and the deletion feed have been read.
 */
async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new BullpenClient(config);
  const own = readJson<{ watermark: string }>(config.outputDir, SYNC_STATE);
  const since = own?.watermark ?? readJson<ClassicState>(config.outputDir, CLASSIC_STATE)?.watermark ?? null;
  // The Classic job's rows (on the first run) carry Classic's text: they get Bullpen's types.
  const carried = (file: string) => new Map([...readMirror(config.outputDir, file)].map(([id, row]) => [id, own ? row : { ...row, data: typed(row.data) }]));
  const mirrors = new Map<string, Map<string, Row>>(SOURCES.map((s) => [s.entity, since ? carried(s.file) : new Map()]));
  for (const s of SOURCES) {
    const items = await client.listAll(s.path, since);
    const rows = mirrors.get(s.entity)!;
    for (const item of items) rows.set(String(item.id), toRow(item));
    console.error(`${s.path}: ${items.length} records${since ? ` changed after ${since}` : ""}`);
  }
  if (since) {
    const deletions = await client.listAll("/api/v2/deleted-records", since);
    for (const d of deletions) {
      const row = mirrors.get(String(d.record_type))?.get(String(d.id));
      if (row) row.is_deleted = true;
    }
    console.error(`/api/v2/deleted-records: ${deletions.length} deletions`);
  }
  for (const s of SOURCES) writeMirror(config.outputDir, s.file, mirrors.get(s.entity)!);
  if (!client.serverTime) throw new Error("Bullpen sent no X-Bullpen-Server-Time header");
  writeJson(config.outputDir, SYNC_STATE, { watermark: client.serverTime });
}

const command = process.argv[2];
const run = command === "classic-sync" ? classicSync : command === "sync" ? sync : null;
if (!run) {
  console.error("usage: node src/main.ts classic-sync | sync");
  process.exit(2);
}
run().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
