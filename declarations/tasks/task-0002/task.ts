import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { Snapshot } from "../../../evidence/verdict.ts";
import { DAY_MS, type MirrorRow, compareRows, expectedRows, liveIds, outputRows, plumbing, mirrorOutputs } from "../shared/judging.ts";

const FILES = ["candidates.json", "notes.json"];
const ENTITY_FILES = [
  ["candidate", "candidates.json"],
  ["note", "notes.json"],
] as const;

/** ISO 8601 with seconds optional and an explicit offset, as TalentForge writes and accepts it. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant of a timestamp (epoch ms), or a marker that never equals one. */
function instant(v: unknown): number | string {
  return typeof v === "string" && ISO_INSTANT.test(v) ? Date.parse(v) : `not an ISO-8601 instant: ${JSON.stringify(v)}`;
}

/**
 * A mirror row with its timestamps turned into instants (TalentForge writes
 * each record in its own UTC offset; any offset naming the same instant is
 * right) and the delete flag kept only as `is_deleted`.
 */
function normalise(row: MirrorRow, timestampFields: string[], flagField: string): MirrorRow {
  const raw = row.data && typeof row.data === "object" && !Array.isArray(row.data) ? row.data : {};
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === flagField) continue;
    data[k] = timestampFields.includes(k) ? instant(v) : v;
  }
  return { source_id: row.source_id, data, updated_at: instant(row.updated_at), is_deleted: row.is_deleted };
}

/**
 * Compares one mirror file with ground truth. Deleted records the client had
 * seen alive (`seenAlive`) must be there with `is_deleted: true`; deleted
 * records it never saw alive may be absent or present flagged.
 */
function mirrorMatches(rows: MirrorRow[], truth: Snapshot, entity: string, seenAlive: Set<string>, vendor: Vendor): { ok: boolean; detail: string } {
  const resource = vendor.resources.find((r) => r.name === entity)!;
  const timestampFields = resource.fields.filter((f) => f.type === "timestamp").map((f) => f.name);
  const flagField = vendor.deletes.mode === "flag" ? vendor.deletes.field : "";
  const expected = expectedRows(truth, entity, { updatedField: "updated_at", seen: seenAlive });
  const optional = new Set((truth.entities[entity] ?? []).filter((r) => r.deleted && !seenAlive.has(r.id)).map((r) => r.id));
  const kept = rows.filter((r) => r && typeof r === "object" && !(optional.has(String(r.source_id)) && r.is_deleted === true));
  return compareRows(
    kept.map((r) => normalise(r, timestampFields, flagField)),
    new Map([...expected].map(([id, r]) => [id, normalise(r, timestampFields, flagField)])),
  );
}

/** What changed for an entity between two snapshots: added, changed, deleted ids. */
function changes(before: Snapshot, after: Snapshot, entity: string): { ids: string[]; summary: string } {
  const old = new Map((before.entities[entity] ?? []).map((r) => [r.id, r]));
  let added = 0;
  let changed = 0;
  let deleted = 0;
  const ids: string[] = [];
  for (const r of after.entities[entity] ?? []) {
    const prev = old.get(r.id);
    if (!prev) added += 1;
    else if (r.deleted && !prev.deleted) deleted += 1;
    else if (JSON.stringify(prev.record) !== JSON.stringify(r.record)) changed += 1;
    else continue;
    ids.push(r.id);
  }
  return { ids, summary: `${added} added, ${changed} changed, ${deleted} deleted since the previous run` };
}

function updatedInstants(s: Snapshot, ids?: string[]): number[] {
  const want = ids ? new Set(ids) : null;
  return (s.entities.candidate ?? []).filter((r) => !want || want.has(r.id)).map((r) => Date.parse(String(r.record.updated_at)));
}

export default defineTask({
  id: "task-0002",
  title: "TalentForge candidate mirror: every note of every candidate, kept current by incremental catch-ups",
  kind: "build",
  roles: { ats: { vendor: "talentforge", checkpoint: 0 } },
  seed: 23,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "subresource_cursor_sweep",
  entry: { command: ["node", "src/main.ts"], subcommands: ["backfill", "incremental"] },
  outputs: mirrorOutputs(FILES),
  timeLimitS: 30,
  scenarios: [
    {
      name: "initial_sync",
      judge: (e, c, ctx) => {
        const run = e.runs[0];
        if (!plumbing(c, "backfill_exit_ok", run, FILES, { ticket: "Both commands exit 0" })) return;
        const truth = e.snapshots.after_backfill.ats;
        for (const [entity, file] of ENTITY_FILES) {
          const cmp = mirrorMatches(outputRows(run, file)!, truth, entity, new Set(), ctx.vendors.ats);
          c.check(`backfill_${entity}s_match`, cmp.ok, {
            basis: { ticket: "the mirror matches TalentForge after a back-fill and after a catch-up" },
            pass: 2,
            fail: 0,
            mandatory: true,
            detail: cmp.detail,
          });
        }
      },
    },
    {
      name: "incremental_catch_up",
      judge: (e, c, ctx) => {
        const [backfill, incremental] = e.runs;
        if (!plumbing(c, "incremental_exit_ok", incremental, FILES, { ticket: "Both commands exit 0" }) || backfill?.exitCode !== 0) return;
        const vendor = ctx.vendors.ats;
        const before = e.snapshots.cp0.ats;
        const after = e.snapshots.cp2.ats;
        for (const [entity, file] of ENTITY_FILES) {
          const cmp = mirrorMatches(outputRows(incremental, file)!, after, entity, liveIds(before, entity), vendor);
          c.check(`catch_up_${entity}s_match`, cmp.ok, {
            basis: { ticket: "the mirror matches TalentForge after a back-fill and after a catch-up" },
            pass: 2,
            fail: 0,
            mandatory: true,
            detail: `${changes(before, after, entity).summary}: ${cmp.detail}`,
          });
        }

        // Conduct of the catch-up: candidate lists read through the real change filter, with a
        // watermark that is an instant between the back-fill's newest record and the first change.
        const param = vendor.incremental!.param;
        const candidateList = vendor.resources.find((r) => r.name === "candidate")?.list;
        const epoch = (e.epochs.ats ?? []).at(-1);
        const calls = (e.requests.ats ?? []).filter((r: RequestLogEntry) => r.epoch === epoch && r.method === "GET" && r.path === candidateList);
        if (!calls.length) return;
        const full = calls.filter((r) => !r.query[param]);
        c.check("catch_up_candidate_reads_use_change_filter", full.length === 0, {
          basis: { ticket: "Candidates must be read through TalentForge's change filter: do not list the whole candidate table again." },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: `${full.length} of ${calls.length} catch-up candidate list calls without ${param}${full.length ? ` (first has: ${Object.keys(full[0].query).join(", ") || "no parameters"})` : ""}`,
        });
        const newestBefore = Math.max(...updatedInstants(before));
        const firstChange = Math.min(...updatedInstants(after, changes(before, after, "candidate").ids));
        const marks = [...new Set(calls.map((r) => r.query[param]).filter((v) => v !== undefined))];
        const problems = marks.length ? [] : [`no ${param}`];
        for (const m of marks) {
          const at = instant(m);
          if (typeof at !== "number") problems.push(`${param}=${JSON.stringify(m)} is not an ISO-8601 instant`);
          else if (at > firstChange) problems.push(`${param}=${m} is after the first change (${new Date(firstChange).toISOString()})`);
          else if (at < newestBefore - 7 * DAY_MS) problems.push(`${param}=${m} re-reads far more than changed (newest record at the back-fill: ${new Date(newestBefore).toISOString()})`);
        }
        c.check("catch_up_watermark_between_runs", problems.length === 0, {
          basis: { ticket: "bring the mirror up to date with what changed in TalentForge since the last run" },
          pass: 1,
          fail: 0,
          level: "l2",
          detail: problems.length ? problems.slice(0, 3).join("; ") : `${marks.join(", ")} sits between the back-fill's newest record and the first change`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials belong in headers or request bodies, never in URLs",
    no_secrets_echoed_to_vendor: "Credentials belong in headers or request bodies, never in URLs",
    token_reused_not_reminted: "reuse tokens and sessions instead of opening new ones per request",
    retry_after_honored: "respect the documented rate limit (600 requests, then a pause; the wait is in `Retry-After`)",
    no_full_resync_after_incremental: "do not list the whole candidate table again",
  },
});
