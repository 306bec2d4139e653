import { z } from "zod";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import { type OutputContract, jsonRows } from "../../schema/output-contract.ts";
import type { CheckBasis, ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";

/** One row of the canonical mirror format most tasks use. */
export interface MirrorRow {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

/** The row schema of the canonical mirror format (`source_id`, `data`, `updated_at`, `is_deleted`); other fields may follow. */
export const MirrorRowSchema = z.looseObject({
  source_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  updated_at: z.union([z.string(), z.number(), z.null()]),
  is_deleted: z.boolean(),
});

/** Output contracts of files that each hold mirror rows as one JSON array. */
export const mirrorOutputs = (files: readonly string[]): Record<string, OutputContract> => Object.fromEntries(files.map((f) => [f, jsonRows(MirrorRowSchema)]));

/** The connector run of a scenario with the given label, if it ran. */
export const byLabel = (e: ScenarioEvidence, label: string): ConnectorRun | undefined => e.runs.find((r) => r.label === label);

/**
 * Why a run's output file cannot be judged, or null when its rows are there.
 * The harness read it by its declared contract, so an unreadable file's message
 * already names the format expected and the parser's or schema's words.
 */
export function outputProblem(run: ConnectorRun | undefined, file: string): string | null {
  const out = run?.outputs[file];
  if (!out?.present) return `${file} was not written`;
  if (!out.parsed) return out.error.startsWith(file) ? out.error : `${file}: ${out.error}`;
  return null;
}

/** The rows of an output file, or null when it is missing, unparseable or not an array. */
export function outputRows<T = MirrorRow>(run: ConnectorRun | undefined, file: string): T[] | null {
  const out = run?.outputs[file];
  if (!out || !out.present || !out.parsed || !Array.isArray(out.value)) return null;
  return out.value as T[];
}

/** The most telling line of a connector's stderr: its last error message, else its last line. */
export function lastError(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const error = [...lines].reverse().find((l) => /error/i.test(l) && !l.startsWith("at "));
  return (error ?? lines.at(-1) ?? "no output").slice(0, 200);
}

/**
 * Plumbing check (0/-1): the run exited 0 AND wrote every listed file, readable in its declared
 * format with rows that meet its schema. A do-nothing run cannot bank it; a broken run loses a
 * point. The detail names each file that was not written, or does not read, and why. `basis` is
 * the ticket sentence that asks for the command and its files.
 */
export function plumbing(c: CheckRecorder, name: string, run: ConnectorRun | undefined, files: string[], basis: CheckBasis): boolean {
  const unread = run ? files.map((f) => outputProblem(run, f)).filter((p) => p !== null) : [];
  const ok = !!run && run.exitCode === 0 && !unread.length;
  const why = !run ? "the connector did not run" : run.timedOut ? "the connector timed out" : run.exitCode !== 0 ? `exit code ${run.exitCode}: ${lastError(run.stderrTail)}` : unread.join("; ");
  return c.check(name, ok, { basis, pass: 0, fail: -1, detail: ok ? "exit 0, outputs readable" : why });
}

/** Expected mirror of one entity from a snapshot: live records, plus deleted ones the client had seen. */
export function expectedRows(snapshot: Snapshot, entity: string, opts: { idField?: string; updatedField: string; seen?: Set<string> }): Map<string, MirrorRow> {
  const idField = opts.idField ?? "id";
  const rows = new Map<string, MirrorRow>();
  for (const r of snapshot.entities[entity] ?? []) {
    if (r.deleted && !opts.seen?.has(r.id)) continue;
    const { [idField]: _id, ...data } = r.record;
    rows.set(String(r.id), { source_id: String(r.id), data, updated_at: r.record[opts.updatedField], is_deleted: r.deleted });
  }
  return rows;
}

/** Differences between a mirror file and what it should hold; deleted rows are compared on their flag only. */
export function compareRows(actual: MirrorRow[], expected: Map<string, MirrorRow>): { ok: boolean; detail: string } {
  const got = new Map(actual.filter((r) => r && typeof r === "object").map((r) => [String(r.source_id), r]));
  const missing = [...expected.keys()].filter((id) => !got.has(id));
  const extra = [...got.keys()].filter((id) => !expected.has(id));
  const wrong: string[] = [];
  for (const [id, want] of expected) {
    const have = got.get(id);
    if (!have) continue;
    if (Boolean(have.is_deleted) !== want.is_deleted) wrong.push(`${id} is_deleted`);
    else if (!want.is_deleted && (JSON.stringify(sortKeys(have.data)) !== JSON.stringify(sortKeys(want.data)) || have.updated_at !== want.updated_at)) wrong.push(id);
  }
  const rows = actual.filter((r) => r && typeof r === "object");
  const sorted = rows.length === actual.length && rows.every((r, i) => i === 0 || String(rows[i - 1].source_id) < String(r.source_id));
  const ok = !missing.length && !extra.length && !wrong.length && sorted;
  const detail = ok
    ? `${expected.size} rows match`
    : [
        missing.length && `${missing.length} missing (${missing.slice(0, 3).join(", ")})`,
        extra.length && `${extra.length} unexpected (${extra.slice(0, 3).join(", ")})`,
        wrong.length && `${wrong.length} wrong (${wrong.slice(0, 3).join(", ")})`,
        !sorted && "not sorted by source_id",
      ]
        .filter(Boolean)
        .join("; ");
  return { ok, detail };
}

function sortKeys(v: unknown): unknown {
  if (!v || typeof v !== "object" || Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** One day in milliseconds (watermark and window arithmetic in judges). */
export const DAY_MS = 86_400_000;

/** Ids of an entity's records that are not deleted in a snapshot. */
export function liveIds(s: Snapshot, entity: string): Set<string> {
  return new Set((s.entities[entity] ?? []).filter((r) => !r.deleted).map((r) => r.id));
}

/** The first few ids, for a check's detail. */
export function fewIds(ids: (string | number)[]): string {
  return ids.slice(0, 4).join(", ") + (ids.length > 4 ? ", ..." : "");
}
