/**
 * @module external-attempt
 * A submitted patch graded as an attempt (`wirebench grade-all`): the patch is
 * applied to a pristine starter (apply-patch.ts), the tree graded exactly as
 * `wirebench grade` grades a connector, in the sandbox against a fresh world,
 * and one bundle written per prediction: `summary.json` (`harness:
 * "external"`), `verdict.json`, `evidence.json` (the sealed run, for
 * `regrade`), `patch.diff`, `vendor-requests.json` and `problem.md`. A patch
 * that is refused or does not apply is an attempt scored 0, with the reason.
 * The bundle is written into a temporary folder beside its place and renamed
 * there, so a bundle folder is either complete or absent.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequestLogEntry } from "../../evidence/logs.ts";
import type { Prediction } from "../../evidence/prediction.ts";
import type { Verdict } from "../../evidence/verdict.ts";
import type { Task } from "../../declarations/schema/task.ts";
import { controlCall, type FarmHandle } from "../farm/control-client.ts";
import { gradeRepo } from "../harness/grade-repo.ts";
import { taskDir } from "../harness/workspace.ts";
import { applyUntrustedPatch } from "./apply-patch.ts";
import type { AttemptSummary } from "./attempt.ts";
import { openConnectorSandbox } from "./sandbox/connector-sandbox.ts";
import { NO_USAGE } from "./trajectory.ts";

/** The lane of graded predictions: their agent ran in a harness of the submitter's. */
export const EXTERNAL_LANE = "external";

/** `summary.json` of a graded prediction. */
export interface ExternalSummary extends AttemptSummary {
  /** The agent ran outside wirebench; only its patch was graded here. */
  harness: "external";
  /** SHA-256 of the patch as submitted: a bundle of another patch for the same attempt is stale. */
  patch_sha256: string;
  /** The run sealed for it (null when the patch was refused). */
  run: string | null;
  /** The hosted submission this grades (`POST /v1/submissions`), or null for a local predictions file. */
  submission: { id: string; participant: string | null } | null;
}

export interface ExternalAttemptOptions {
  farm: FarmHandle;
  task: Task;
  prediction: Prediction;
  seed: number;
  /** Folder of bundles; the bundle is `<runsDir>/<attemptId>/`. */
  runsDir: string;
  attemptId: string;
  submission?: ExternalSummary["submission"];
  versions: AttemptSummary["versions"];
  hashes: AttemptSummary["hashes"];
}

export const patchSha256 = (patch: string) => createHash("sha256").update(patch).digest("hex");

/** The bundle's summary when it is complete and grades this very patch, else null (to be graded again). */
export function completeBundle(runsDir: string, attemptId: string, patch: string): ExternalSummary | null {
  const file = join(runsDir, attemptId, "summary.json");
  if (!existsSync(file)) return null;
  try {
    const s = JSON.parse(readFileSync(file, "utf8")) as ExternalSummary;
    return s.harness === "external" && s.patch_sha256 === patchSha256(patch) ? s : null;
  } catch {
    return null;
  }
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/** Grades one prediction and writes its bundle; returns its summary. Errors of the farm (unreachable, refusing) propagate and leave no bundle. */
export async function gradePrediction(o: ExternalAttemptOptions): Promise<ExternalSummary> {
  const t0 = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), "wb-external-"));
  const repo = join(scratch, "repo");
  let verdict: Verdict | null = null;
  let error: string | null = null;
  let sealed: unknown = null;
  const report: { world?: string; run?: string; epochs?: Record<string, number[]> } = {};
  const gradingRequests: Record<string, Record<string, RequestLogEntry[]>> = {};
  try {
    const applied = applyUntrustedPatch(join(taskDir(o.task.id), "repo"), o.prediction.patch, repo);
    if (!applied.ok) error = applied.reason;
    else {
      verdict = await gradeRepo({ farm: o.farm, task: o.task, repoDir: repo, seed: o.seed, report, connectors: (w) => openConnectorSandbox(o.farm.url, w) });
      sealed = await controlCall<unknown>(o.farm, "GET", `/v1/runs/${report.run}/evidence`);
      for (const [role, epochs] of Object.entries(report.epochs ?? {})) {
        gradingRequests[role] = {};
        for (const ep of epochs)
          gradingRequests[role][ep] = (await controlCall<{ records: RequestLogEntry[] }>(o.farm, "GET", `/v1/worlds/${report.world}/roles/${role}/requests?epoch=${ep}`)).records;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const gradingS = (performance.now() - t0) / 1000;
  const summary: ExternalSummary = {
    attempt: o.attemptId,
    task: o.task.id,
    lane: EXTERNAL_LANE,
    model: o.prediction.model,
    seed: o.seed,
    trial: 1,
    score: verdict ? verdict.score : 0,
    solved: verdict ? verdict.solved : false,
    reward: verdict ? verdict.score / 100 : 0,
    failure_class: verdict ? "candidate_result" : "candidate_patch_failure",
    stop_reason: "submitted",
    error,
    checks: verdict
      ? Object.values(verdict.checks)
          .flat()
          .map((c) => ({ name: c.name, ok: c.ok, mandatory: c.mandatory, level: c.level }))
      : [],
    usage: { ...NO_USAGE },
    timing: { setup_s: 0, agent_s: 0, grading_s: round(gradingS), bundle_s: 0 },
    versions: o.versions,
    hashes: o.hashes,
    secret_redaction: { detected: false, locations: [] },
    proxy: { forwarded: 0, refused: 0, farm_origin: o.farm.url },
    worlds: { development: "", grading: report.world ?? null },
    limits: { enforcement: "rlimits", workspace_bytes: null, oom_kills: 0, pids_refused: 0 },
    harness: "external",
    run: report.run ?? null,
    patch_sha256: patchSha256(o.prediction.patch),
    submission: o.submission ?? null,
  };

  const t1 = performance.now();
  mkdirSync(o.runsDir, { recursive: true });
  const partial = mkdtempSync(join(o.runsDir, `.partial-${o.attemptId}-`));
  chmodSync(partial, 0o755);
  const json = (name: string, value: unknown) => writeFileSync(join(partial, name), `${JSON.stringify(value, null, 2)}\n`);
  writeFileSync(join(partial, "patch.diff"), o.prediction.patch);
  writeFileSync(join(partial, "problem.md"), readFileSync(join(taskDir(o.task.id), "PROBLEM.md")));
  json("verdict.json", verdict);
  json("evidence.json", sealed);
  json("vendor-requests.json", { development: null, grading: { world: report.world ?? null, roles: gradingRequests } });
  summary.timing.bundle_s = round((performance.now() - t1) / 1000);
  json("summary.json", summary);
  const final = join(o.runsDir, o.attemptId);
  rmSync(final, { recursive: true, force: true });
  renameSync(partial, final);
  return summary;
}

/** Removes what interrupted runs left in a runs folder (bundles never renamed into place). */
export function clearPartials(runsDir: string): void {
  if (!existsSync(runsDir)) return;
  for (const name of readdirSync(runsDir)) if (name.startsWith(".partial-")) rmSync(join(runsDir, name), { recursive: true, force: true });
}
