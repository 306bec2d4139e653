import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence } from "../../../evidence/verdict.ts";
import { DAY_MS, compareRows, expectedRows, liveIds, outputRows, plumbing, mirrorOutputs } from "../shared/judging.ts";

const FILES = ["candidates.json", "jobs.json", "applications.json"];
/** Entity, mirror file, list path; candidates and applications are the core of the mirror. */
const ENTITIES = [
  { entity: "candidate", file: "candidates.json", path: "/svc/candidates", core: true },
  { entity: "job", file: "jobs.json", path: "/svc/jobs", core: false },
  { entity: "application", file: "applications.json", path: "/svc/applications", core: true },
] as const;
const CATCH_UP_PATHS = new Set([...ENTITIES.map((x) => x.path), "/svc/tombstones"]);

/** Ids of one entity that are live in a snapshot. */

/** Conduct kept from the starter: every applications read asks for the stage, and signed requests are accepted. */
function keptBehaviour(e: ScenarioEvidence, c: CheckRecorder): void {
  const requests = e.requests.ats ?? [];
  const appReads = requests.filter((r) => r.method === "GET" && r.path === "/svc/applications");
  if (appReads.length) {
    const bare = appReads.filter((r) => r.query.include_stage !== "true");
    c.check("stage_requested_on_every_application_read", bare.length === 0, {
      basis: { ticket: "request signing, the clock handling for signatures, rate-limit handling and the stage flag on applications work and must keep working" },
      level: "l2",
      detail: `${bare.length} of ${appReads.length} application reads without include_stage=true`,
    });
  }
  if (requests.length) {
    const refused = requests.filter((r) => r.status === 401).length;
    c.check("signed_requests_accepted", refused <= e.runs.length, {
      basis: { ticket: "request signing, the clock handling for signatures, rate-limit handling and the stage flag on applications work and must keep working" },
      level: "l2",
      detail: `${refused} of ${requests.length} requests refused as unauthenticated over ${e.runs.length} runs (one clock probe per run allowed)`,
    });
  }
}

export default defineTask({
  id: "task-0004",
  title: "StaffLine sync repair: token leak, short pages and a host-clock watermark",
  kind: "fix",
  roles: { ats: { vendor: "staffline", checkpoint: 1, scale: 2 } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "planted_defect_repair",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync"] },
  outputs: mirrorOutputs(FILES),
  timeLimitS: 30,
  scenarios: [
    {
      // A first full sync of a tenant that already has history (deletes before the mirror existed).
      name: "full_sync",
      judge: (e, c) => {
        keptBehaviour(e, c);
        const run = e.runs[0];
        if (!plumbing(c, "full_sync_exit_ok", run, FILES, { ticket: "Both commands exit 0" })) return;
        const truth = e.snapshots.cp1.ats;
        for (const { entity, file, core } of ENTITIES) {
          const cmp = compareRows(outputRows(run, file)!, expectedRows(truth, entity, { updatedField: "mod_ts" }));
          c.check(`full_${entity}s_match`, cmp.ok, {
            basis: { ticket: "the mirror matches StaffLine after a full sync and after a nightly catch-up" },
            pass: core ? 2 : 1,
            fail: 0,
            mandatory: core,
            detail: cmp.detail,
          });
        }
      },
    },
    {
      // Full sync at checkpoint 1, a day passes on StaffLine (checkpoint 2), the nightly catch-up.
      name: "catch_up",
      judge: (e, c) => {
        keptBehaviour(e, c);
        const [full, inc] = e.runs;
        const cp1 = e.snapshots.cp1.ats;
        const cp2 = e.snapshots.cp2.ats;
        const epochs = e.epochs.ats ?? [];
        const catchUp = (e.requests.ats ?? []).filter((r) => r.epoch === epochs.at(-1) && r.method === "GET" && CATCH_UP_PATHS.has(r.path));
        if (catchUp.length) {
          const full = catchUp.filter((r) => r.query.modified_since === undefined);
          c.check("catch_up_reads_only_changes", full.length === 0, {
            basis: { ticket: "an incremental run reads changes, not the tenant" },
            level: "l2",
            detail: `${full.length} of ${catchUp.length} catch-up reads (lists and tombstones) without modified_since`,
          });
          const marks = [...new Set(catchUp.map((r) => Number(r.query.modified_since)).filter((n) => Number.isFinite(n)))];
          const newest = Math.max(...ENTITIES.flatMap(({ entity }) => (cp1.entities[entity] ?? []).map((r) => Number(r.record.mod_ts))));
          const onClock = marks.length > 0 && marks.every((m) => m >= newest - 30 * DAY_MS && m <= newest + DAY_MS);
          c.check("watermark_on_vendor_clock", onClock, {
            basis: { ticket: "read only what changed since that run (new, updated and deleted records)" },
            detail: `watermarks ${marks.join(", ") || "none"} against the newest change StaffLine held at the full sync, ${newest}`,
          });
        }
        if (!plumbing(c, "catch_up_exit_ok", inc, FILES, { ticket: "Both commands exit 0" }) || full?.exitCode !== 0) return;
        for (const { entity, file, core } of ENTITIES) {
          const seen = liveIds(cp1, entity);
          const cmp = compareRows(outputRows(inc, file)!, expectedRows(cp2, entity, { updatedField: "mod_ts", seen }));
          c.check(`catch_up_${entity}s_match`, cmp.ok, {
            basis: { ticket: "the mirror matches StaffLine after a full sync and after a nightly catch-up" },
            pass: core ? 2 : 1,
            fail: 0,
            mandatory: core,
            detail: cmp.detail,
          });
        }
        const seenCandidates = liveIds(cp1, "candidate");
        const deletedSince = (cp2.entities.candidate ?? []).filter((r) => r.deleted && seenCandidates.has(r.id)).map((r) => r.id);
        if (deletedSince.length) {
          const rows = new Map((outputRows(inc, "candidates.json") ?? []).map((r) => [String(r.source_id), r]));
          const flagged = deletedSince.filter((id) => rows.get(id)?.is_deleted === true);
          c.check("deleted_candidates_flagged", flagged.length === deletedSince.length, {
            basis: { ticket: "A record the mirror held that StaffLine has since deleted stays, marked `is_deleted: true`" },
            detail: `${flagged.length} of ${deletedSince.length} candidates deleted since the full sync marked is_deleted`,
          });
        }
        const unseen = ENTITIES.flatMap(({ entity, file }) => {
          const seen = liveIds(cp1, entity);
          return (cp2.entities[entity] ?? []).filter((r) => r.deleted && !seen.has(r.id)).map((r) => ({ id: r.id, file }));
        });
        if (unseen.length) {
          const held = unseen.filter(({ id, file }) => (outputRows(inc, file) ?? []).some((r) => String(r.source_id) === id));
          c.check("no_rows_for_records_never_mirrored", held.length === 0, {
            basis: { ticket: "a record the mirror never held has no row" },
            detail: held.length
              ? `${held.length} of ${unseen.length} records deleted before the mirror held them have rows (${held
                  .slice(0, 3)
                  .map((x) => x.id)
                  .join(", ")})`
              : `none of ${unseen.length} records deleted before the mirror held them has a row`,
          });
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials go in headers, never in URLs",
    no_secrets_echoed_to_vendor: "credentials go in headers, never in URLs",
    retry_after_honored: "keep to the documented rate limits",
    no_full_resync_after_incremental: "an incremental run reads changes, not the tenant",
  },
});
