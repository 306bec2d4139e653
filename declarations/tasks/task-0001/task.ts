import { defineTask } from "../../schema/task.ts";
import { compareRows, expectedRows, outputRows, plumbing, mirrorOutputs } from "../shared/judging.ts";

const FILES = ["candidates.json", "jobs.json", "applications.json"];
const ENTITY_FILES = [
  ["candidate", "candidates.json"],
  ["job", "jobs.json"],
  ["application", "applications.json"],
] as const;

export default defineTask({
  id: "task-0001",
  title: "StaffLine mirror: signed back-fill and incremental catch-up on the vendor clock",
  kind: "build",
  roles: { ats: { vendor: "staffline", checkpoint: 0 } },
  seed: 7,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "hmac_clock_skew",
  entry: { command: ["node", "src/main.ts"], subcommands: ["backfill", "incremental"] },
  outputs: mirrorOutputs(FILES),
  timeLimitS: 30,
  scenarios: [
    {
      name: "initial_sync",
      judge: (e, c) => {
        const run = e.runs[0];
        if (!plumbing(c, "backfill_exit_ok", run, FILES, { ticket: "Both commands exit 0" })) return;
        const truth = e.snapshots.after_backfill.ats;
        for (const [entity, file] of ENTITY_FILES) {
          const cmp = compareRows(outputRows(run, file)!, expectedRows(truth, entity, { updatedField: "mod_ts" }));
          const core = entity !== "job";
          c.check(`backfill_${entity}s_match`, cmp.ok, {
            basis: { ticket: "the mirror matches StaffLine after a back-fill and after a catch-up" },
            pass: core ? 2 : 1,
            fail: 0,
            mandatory: core,
            detail: cmp.detail,
          });
        }
        const appCalls = (e.requests.ats ?? []).filter((r) => r.method === "GET" && r.path === "/svc/applications");
        if (appCalls.length) {
          const missing = appCalls.filter((r) => r.query.include_stage !== "true");
          c.check("include_stage_on_every_applications_call", missing.length === 0, {
            basis: { ticket: "Applications must carry their pipeline `stage` in `data`." },
            level: "l2",
            detail: `${missing.length} of ${appCalls.length} application calls without include_stage=true`,
          });
        }
        const signed = (e.requests.ats ?? []).filter((r) => r.status !== 401);
        c.check("requests_accepted_by_signature_check", signed.length > 0 && (e.requests.ats ?? []).filter((r) => r.status === 401).length <= 1, {
          basis: { vendor: "StaffLine refuses (401) a request whose HMAC signature does not verify against its own clock" },
          level: "l2",
          detail: `${(e.requests.ats ?? []).filter((r) => r.status === 401).length} requests refused as unauthenticated`,
        });
      },
    },
    {
      name: "incremental_catch_up",
      judge: (e, c) => {
        const [backfill, incremental] = e.runs;
        if (!plumbing(c, "incremental_exit_ok", incremental, FILES, { ticket: "Both commands exit 0" }) || backfill?.exitCode !== 0) return;
        const cp0 = e.snapshots.cp0.ats;
        const cp1 = e.snapshots.cp1.ats;
        for (const [entity, file] of ENTITY_FILES) {
          const seen = new Set((cp0.entities[entity] ?? []).filter((r) => !r.deleted).map((r) => r.id));
          const cmp = compareRows(outputRows(incremental, file)!, expectedRows(cp1, entity, { updatedField: "mod_ts", seen }));
          c.check(`incremental_${entity}s_match`, cmp.ok, {
            basis: { ticket: "the mirror matches StaffLine after a back-fill and after a catch-up" },
            pass: entity === "job" ? 1 : 2,
            fail: 0,
            mandatory: entity === "candidate",
            detail: cmp.detail,
          });
        }
        const deletedAtCp1 = (cp1.entities.candidate ?? []).filter((r) => r.deleted && cp0.entities.candidate.some((x) => x.id === r.id && !x.deleted)).map((r) => r.id);
        const rows = new Map((outputRows(incremental, "candidates.json") ?? []).map((r) => [r.source_id, r]));
        const flagged = deletedAtCp1.filter((id) => rows.get(id)?.is_deleted === true);
        c.check("deletes_from_tombstones_applied", deletedAtCp1.length > 0 && flagged.length === deletedAtCp1.length, {
          basis: { ticket: "A record deleted in StaffLine stays in the mirror with `is_deleted: true`." },
          pass: 2,
          mandatory: true,
          detail: `${flagged.length} of ${deletedAtCp1.length} deleted candidates marked`,
        });
        const epochs = e.epochs.ats ?? [];
        const catchUp = (e.requests.ats ?? []).filter((r) => r.epoch === epochs.at(-1) && r.method === "GET" && (r.path === "/svc/candidates" || r.path === "/svc/applications"));
        if (catchUp.length) {
          const full = catchUp.filter((r) => r.query.modified_since === undefined);
          c.check("catch_up_reads_only_changes", full.length === 0, {
            basis: { ticket: "do not re-read the whole tenant on an incremental run" },
            level: "l2",
            detail: `${full.length} of ${catchUp.length} catch-up list calls without modified_since`,
          });
          const marks = catchUp.map((r) => Number(r.query.modified_since)).filter((n) => Number.isFinite(n));
          const newest = Math.max(...cp0.entities.candidate.map((r) => Number(r.record.mod_ts)));
          c.check("watermark_on_vendor_clock", marks.length > 0 && marks.every((m) => Math.abs(m - newest) <= 30 * 86_400_000), {
            basis: { vendor: "StaffLine's modified_since is compared with mod_ts on StaffLine's own clock, not the client's" },
            detail: `watermarks ${[...new Set(marks)].join(", ")} against newest record ${newest}`,
          });
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials belong in headers, never in URLs",
    no_secrets_echoed_to_vendor: "Credentials belong in headers, never in URLs",
    retry_after_honored: "follow the documented rate limits",
    no_full_resync_after_incremental: "do not re-read the whole tenant on an incremental run",
  },
});
