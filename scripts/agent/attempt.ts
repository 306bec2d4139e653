/**
 * @module attempt
 * One attempt of an agent at a task: a development world, a fresh workspace
 * and home, the sandbox behind the allowlisting proxy, the lane's CLI (or the
 * direct loop), then the patch, the secret guard, grading on a fresh world,
 * and the bundle under `runs/<attempt>/`.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Task } from "../../declarations/schema/task.ts";
import type { Verdict } from "../../evidence/verdict.ts";
import type { RequestLogEntry } from "../../evidence/logs.ts";
import { controlCall, type FarmHandle } from "../farm/control-client.ts";
import { gradeRepo } from "../harness/grade-repo.ts";
import { isLoopback, relayOnce, relayWanted } from "../harness/relay.ts";
import { farmView, toSandbox } from "./sandbox/farm-view.ts";
import { taskDir } from "../harness/workspace.ts";
import { runDirectLoop, type DirectStop } from "./lanes/direct-loop.ts";
import type { Lane, LaneSetup } from "./lanes/lane.ts";
import type { ScriptedModelServer } from "./model-server/server.ts";
import { prepareAgentWorkspace, webhookTargets } from "./agent-workspace.ts";
import { hostPortTo } from "./sandbox/host-port.ts";
import { openConnectorSandbox } from "./sandbox/connector-sandbox.ts";
import { AGENT_LIMITS, type CellReport } from "./sandbox/cell-limits.ts";
import { handOver } from "./sandbox/ownership.ts";
import { capScratch } from "./sandbox/scratch-quota.ts";
import { SANDBOX, type SandboxSpec } from "./sandbox/bwrap.ts";
import { AllowlistProxy } from "./sandbox/proxy.ts";
import { runSandboxed, streamText } from "./sandbox/run-sandboxed.ts";
import { redact } from "./secrets.ts";
import { numberEvents, type RawLine, type Trajectory, type Usage } from "./trajectory.ts";
import { tagRequests } from "./vendor-requests.ts";
import { toAtif } from "./atif.ts";
import { takePatch } from "./take-patch.ts";
import { git, initBaselineRepo, type DevWorld } from "./workspace.ts";

/** Port the agent's webhook listener listens on inside the sandbox. */
export const SANDBOX_SERVE_PORT = 4000;
/** Port of the egress proxy inside the sandbox (HTTP_PROXY). */
const SANDBOX_PROXY_PORT = 3128;
/** Room for the agent's workspace and home together. */
const WORKSPACE_BYTES = 4 * 1024 ** 3;

export type FailureClass = "candidate_result" | "candidate_runtime_failure" | "candidate_patch_failure" | "provider_infrastructure_failure" | "secret_exfiltration";

/** `summary.json` of an attempt. */
export interface AttemptSummary {
  attempt: string;
  task: string;
  lane: string;
  model: string;
  seed: number;
  trial: number;
  score: number | null;
  solved: boolean;
  /** Score / 100, null when the attempt was not graded. */
  reward: number | null;
  failure_class: FailureClass;
  stop_reason: string;
  error: string | null;
  checks: { name: string; ok: boolean; mandatory: boolean; level: string }[];
  usage: Usage;
  timing: { setup_s: number; agent_s: number; grading_s: number; bundle_s: number };
  versions: { wirebench: string; cli: string };
  hashes: { task_tree: string; harness: string };
  secret_redaction: { detected: boolean; locations: string[] };
  /** What the proxy let through and refused, and the origin the sandbox saw the farm at (a local one for a remote farm). */
  proxy: { forwarded: number; refused: number; farm_origin: string };
  /** The worlds the attempt used, by id: `POST /v1/worlds {reproduce}` seeds the same starting state again. */
  worlds: { development: string; grading: string | null };
  /** The agent's resource limits: how they were enforced, the workspace cap (null: none), and what they stopped. */
  limits: { enforcement: CellReport["enforcement"]; workspace_bytes: number | null; oom_kills: number; pids_refused: number };
}

/** How the lane reaches its model. */
export interface ModelEndpoint {
  /** Name given to the CLI. */
  model: string;
  /** Base URL as the harness reaches it. */
  baseUrl: string;
  apiKey: string;
  /** The scripted server, when the model is scripted (stopped by the attempt). */
  scripted: ScriptedModelServer | null;
}

export interface AttemptOptions {
  farm: FarmHandle;
  task: Task;
  lane: Lane;
  /** Model name as the user gave it (`scripted:gold`). */
  modelLabel: string;
  endpoint: ModelEndpoint;
  seed: number;
  trial: number;
  timeLimitS: number;
  /** The attempt's bundle folder (created). */
  bundleDir: string;
  attemptId: string;
  /** Secrets to keep out of every retained file (provider keys, CLI auth values). */
  secrets: string[];
  versions: AttemptSummary["versions"];
  hashes: AttemptSummary["hashes"];
  /** Seconds between SIGTERM and SIGKILL at the wall clock. */
  graceS?: number;
  /** False skips grading (harness measurements only; the attempt then counts as ungraded). */
  grade?: boolean;
}

function scratchDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Runs one attempt to its bundle and returns its summary. */
export async function runAttempt(o: AttemptOptions): Promise<AttemptSummary> {
  const t0 = performance.now();
  const root = scratchDir("wb-attempt-");
  const quota = capScratch(root, WORKSPACE_BYTES);
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  const bridge = join(root, "bridge");
  for (const d of [workspace, home, bridge]) mkdirSync(d, { recursive: true });
  // The sandbox account must reach the three folders (and nothing else here).
  chmodSync(root, 0o711);
  handOver(bridge);
  // A remote farm is seen inside the sandbox at a local origin the proxy forwards (farm-view.ts).
  const view = farmView(o.farm.url);
  const roles = Object.keys(o.task.roles);

  // The host side of the sandbox's webhook listener.
  const serveSocket = join(bridge, "serve.sock");
  const listenerPort = await hostPortTo(serveSocket);
  const targets = webhookTargets(o.task, `http://127.0.0.1:${listenerPort.port}`);
  const dev = await controlCall<DevWorld>(o.farm, "POST", "/v1/worlds", { task: o.task.id, seed: o.seed, webhookTargets: targets, relay: relayWanted(o.farm) });
  const seen = JSON.parse(toSandbox(view, JSON.stringify(dev))) as DevWorld;
  // What `wirebench workspace` writes too (agent-workspace.ts): the same function, the same bytes.
  const { env: agentEnv, prompt, problem } = prepareAgentWorkspace({ dir: workspace, task: o.task, world: seen, seed: o.seed, workspacePath: SANDBOX.workspace, servePort: SANDBOX_SERVE_PORT });
  handOver(workspace);
  handOver(home);

  // No model endpoint (the exec lane): the agent brings its own, reached through the hosts the lane allows.
  const modelUrl = o.endpoint.baseUrl ? new URL(o.endpoint.baseUrl) : null;
  const modelIsLocal = modelUrl !== null && isLoopback(o.endpoint.baseUrl) && modelUrl.protocol === "http:";
  const proxy = new AllowlistProxy({
    bridgeDir: bridge,
    farmOrigin: o.farm.url,
    sandboxOrigin: view.sandboxOrigin,
    allowedPrefixes: roles.map((r) => `/w/${dev.world}/${r}`),
    modelOrigin: modelIsLocal ? modelUrl.origin : null,
    egressAllow: o.lane.egress ?? (modelUrl === null || modelIsLocal ? [] : [`${modelUrl.hostname}:${modelUrl.port || 443}`]),
  });
  await proxy.start();
  const forward: SandboxSpec["forward"] = [
    { port: view.port, socket: AllowlistProxy.SOCKETS.farm, host: view.host },
    { port: SANDBOX_PROXY_PORT, socket: AllowlistProxy.SOCKETS.egress },
  ];
  if (modelIsLocal) forward.push({ port: Number(modelUrl.port), socket: AllowlistProxy.SOCKETS.model });
  // The farm is reached through the bridge, never the egress proxy, whichever loopback address it is on.
  const noProxy = [...new Set(["127.0.0.1", "localhost", view.host])].join(",");
  const proxyEnv = {
    HTTP_PROXY: `http://127.0.0.1:${SANDBOX_PROXY_PORT}`,
    HTTPS_PROXY: `http://127.0.0.1:${SANDBOX_PROXY_PORT}`,
    NO_PROXY: noProxy,
    http_proxy: `http://127.0.0.1:${SANDBOX_PROXY_PORT}`,
    https_proxy: `http://127.0.0.1:${SANDBOX_PROXY_PORT}`,
    no_proxy: noProxy,
  };
  const baseEnv = { ...agentEnv, ...proxyEnv };
  const spec = (argv: string[], env: Record<string, string>): SandboxSpec => ({
    workspace,
    home,
    bridgeDir: bridge,
    mounts: o.lane.mounts(),
    env: { ...baseEnv, ...env },
    forward,
    reverse: [{ socket: "serve.sock", port: SANDBOX_SERVE_PORT }],
    argv,
  });

  const setup: LaneSetup = {
    prompt,
    model: o.endpoint.model,
    modelBaseUrl: modelIsLocal ? modelUrl.origin : o.endpoint.baseUrl,
    apiKey: o.endpoint.apiKey,
    workspace: SANDBOX.workspace,
    home: SANDBOX.home,
    hostHome: home,
    timeLimitS: o.timeLimitS,
    scripted: o.endpoint.scripted !== null,
  };

  // A farm that cannot reach this machine parks deliveries: drain them into the sandbox while the agent works.
  let relaying = true;
  const relayLoop = (async () => {
    if (!relayWanted(o.farm)) return;
    while (relaying) {
      for (const role of roles) await relayOnce(o.farm, dev.world, role).catch(() => 0);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();

  const setupS = (performance.now() - t0) / 1000;
  const agentStartMs = Date.now();
  const t1 = performance.now();
  let lines: RawLine[] = [];
  let stopReason: string;
  let exitCode: number | null = null;
  const cells: CellReport[] = [];
  if (o.lane.id === "direct") {
    const deadlineMs = Date.now() + o.timeLimitS * 1000;
    const emit = (r: unknown) => lines.push({ t: Math.round(Date.now() - agentStartMs) / 1000, stream: "stdout", text: JSON.stringify(r) });
    const stop: DirectStop = await runDirectLoop({
      model: o.endpoint.model,
      baseUrl: o.endpoint.baseUrl,
      apiKey: o.endpoint.apiKey,
      prompt,
      deadlineMs,
      emit,
      exec: async (argv, opts) => {
        const r = await runSandboxed(spec(argv, {}), {
          timeLimitS: Math.min(opts.timeLimitS, Math.max(1, (deadlineMs - Date.now()) / 1000)),
          graceS: 2,
          stdin: opts.stdin,
          limits: AGENT_LIMITS,
        });
        cells.push(r.limits);
        return {
          exitCode: r.exitCode,
          stdout: streamText(r.lines, "stdout"),
          stderr: streamText(r.lines, "stderr"),
          timedOut: r.timedOut,
        };
      },
    });
    stopReason = stop;
  } else {
    const cmd = o.lane.prepare(setup);
    handOver(home);
    // Lines count from the agent's start, as the proxy's records do: preparing the sandbox (the hand-over
    // above, seconds on a loaded machine) must not move the tool calls against the requests they made.
    const run = await runSandboxed(spec(cmd.argv, cmd.env), { timeLimitS: o.timeLimitS, graceS: o.graceS ?? 30, limits: AGENT_LIMITS, originMs: agentStartMs });
    cells.push(run.limits);
    lines = run.lines;
    exitCode = run.exitCode;
    stopReason = run.timedOut ? "wall_clock" : run.exitCode === 0 ? "done" : `exit_${run.exitCode ?? "signal"}`;
  }
  const agentS = (performance.now() - t1) / 1000;
  relaying = false;
  await relayLoop;
  await proxy.stop();
  listenerPort.server.close();
  await o.endpoint.scripted?.stop();

  // Capture.
  // Null: the output is in no known event format (an exec lane's agent of its own kind).
  const readable = o.lane.readable?.(lines) ?? true;
  const events = readable ? numberEvents(o.lane.normalize(lines, { model: o.endpoint.model, prompt })) : [];
  const trajectory: Trajectory | null = !readable ? null : { schema: "wirebench-trajectory/1", lane: o.lane.id, model: o.modelLabel, events };
  const usage = o.lane.usage(lines);
  // A CLI prices an unknown (scripted) model at list prices; it cost nothing.
  if (o.endpoint.scripted) usage.cost_usd = null;
  const failure = o.lane.providerFailure(lines);
  if (failure) stopReason = failure.kind;
  const transcript = [
    ...(o.lane.id === "direct" ? [] : [JSON.stringify({ type: "user", content: prompt.slice(0, 4000), ts: agentStartMs / 1000 })]),
    ...transcriptRecords(lines, agentStartMs, o.lane.id === "exec"),
  ].join("\n");
  const agentLog = [
    `$ ${o.lane.id} (${o.modelLabel}) ${prompt.length}-character prompt`,
    ...lines.filter((l) => l.stream === "stderr" || !l.text.startsWith("{")).map((l) => `[${l.t.toFixed(1)}s ${l.stream}] ${l.text}`),
    `exit=${exitCode ?? "-"} stop=${stopReason}`,
  ].join("\n");

  // The patch, taken without running git in the agent's repository.
  const taken = takePatch(join(taskDir(o.task.id), "repo"), join(workspace, "repo"));
  const patch = taken.ok ? taken.patch : "";

  // The secret guard over everything kept.
  const files: Record<string, string> = {
    "patch.diff": patch,
    "transcript.jsonl": transcript,
    "agent.log": agentLog,
    "trajectory.json": JSON.stringify(trajectory, null, 2),
    "trajectory.atif.json": JSON.stringify(trajectory && toAtif(trajectory, { sessionId: o.attemptId, agentVersion: o.versions.cli, startedAtMs: agentStartMs, usage }), null, 2),
  };
  const locations: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const r = redact(text, o.secrets);
    if (r.found) locations.push(name);
    files[name] = r.text;
  }
  const exfiltrated = locations.length > 0;

  // Grading.
  const t2 = performance.now();
  let verdict: Verdict | null = null;
  let failureClass: FailureClass;
  let error: string | null = null;
  const report: { world?: string; run?: string; epochs?: Record<string, number[]> } = {};
  if (failure) {
    failureClass = "provider_infrastructure_failure";
    error = failure.message;
  } else if (exfiltrated) {
    failureClass = "secret_exfiltration";
    error = `runtime secret exfiltration detected and redacted (${locations.join(", ")}); the patch is rejected`;
    files["patch.diff"] = "";
  } else if (!taken.ok) {
    failureClass = "candidate_patch_failure";
    error = `the patch was not taken: ${taken.reason}`;
  } else if (o.grade === false) {
    failureClass = "candidate_result";
    error = "not graded (grading was turned off)";
  } else {
    const pristine = scratchDir("wb-grade-");
    initBaselineRepo(pristine, join(taskDir(o.task.id), "repo"));
    let applied = true;
    if (patch.trim()) {
      try {
        git(pristine, ["apply", "--binary", "--whitespace=nowarn", "-"], patch);
      } catch (err) {
        applied = false;
        error = `the patch does not apply to the starter: ${(err as Error).message.split("\n")[0]}`;
      }
    }
    if (!applied) failureClass = "candidate_patch_failure";
    else {
      rmSync(join(pristine, ".git"), { recursive: true, force: true });
      // The connector is untrusted too: it is graded in the same sandbox.
      verdict = await gradeRepo({ farm: o.farm, task: o.task, repoDir: pristine, seed: o.seed, report, connectors: (w) => openConnectorSandbox(o.farm.url, w) });
      failureClass = stopReason === "done" ? "candidate_result" : "candidate_runtime_failure";
    }
    rmSync(pristine, { recursive: true, force: true });
  }
  const gradingS = (performance.now() - t2) / 1000;

  const t3 = performance.now();
  // Vendor requests: the development world's (tagged with trajectory events) and the grading world's.
  const devRequests: Record<string, unknown> = {};
  for (const role of roles) {
    const log = await controlCall<{ records: RequestLogEntry[] }>(o.farm, "GET", `/v1/worlds/${dev.world}/roles/${role}/requests`);
    devRequests[role] = tagRequests(log.records, proxy.log, events, agentStartMs);
  }
  const gradingRequests: Record<string, unknown> = {};
  if (report.world) {
    for (const [role, epochs] of Object.entries(report.epochs ?? {})) {
      gradingRequests[role] = {};
      for (const ep of epochs)
        (gradingRequests[role] as Record<string, unknown>)[ep] = (
          await controlCall<{ records: RequestLogEntry[] }>(o.farm, "GET", `/v1/worlds/${report.world}/roles/${role}/requests?epoch=${ep}`)
        ).records;
    }
  }

  const graded = verdict !== null && failureClass !== "provider_infrastructure_failure" && failureClass !== "secret_exfiltration";
  const summary: AttemptSummary = {
    attempt: o.attemptId,
    task: o.task.id,
    lane: o.lane.id,
    model: o.modelLabel,
    seed: o.seed,
    trial: o.trial,
    score: graded ? verdict!.score : null,
    solved: graded ? verdict!.solved : false,
    reward: graded ? verdict!.score / 100 : failureClass === "candidate_patch_failure" ? 0 : null,
    failure_class: failureClass,
    stop_reason: stopReason,
    error,
    checks: verdict
      ? Object.values(verdict.checks)
          .flat()
          .map((c) => ({ name: c.name, ok: c.ok, mandatory: c.mandatory, level: c.level }))
      : [],
    usage,
    timing: { setup_s: round(setupS), agent_s: round(agentS), grading_s: round(gradingS), bundle_s: 0 },
    versions: o.versions,
    hashes: o.hashes,
    worlds: { development: dev.world, grading: report.world ?? null },
    secret_redaction: { detected: exfiltrated, locations },
    proxy: { forwarded: proxy.log.filter((p) => !p.refused).length, refused: proxy.log.filter((p) => p.refused).length, farm_origin: view.sandboxOrigin },
    limits: {
      enforcement: cells[0]?.enforcement ?? "rlimits",
      workspace_bytes: quota.bytes,
      oom_kills: cells.reduce((n, c) => n + c.oomKills, 0),
      pids_refused: cells.reduce((n, c) => n + c.pidsRefused, 0),
    },
  };

  mkdirSync(o.bundleDir, { recursive: true });
  writeFileSync(join(o.bundleDir, "patch.diff"), files["patch.diff"]);
  writeFileSync(join(o.bundleDir, "transcript.jsonl"), files["transcript.jsonl"] ? `${files["transcript.jsonl"]}\n` : "");
  writeFileSync(join(o.bundleDir, "agent.log"), `${files["agent.log"]}\n`);
  writeFileSync(join(o.bundleDir, "trajectory.json"), `${files["trajectory.json"]}\n`);
  writeFileSync(join(o.bundleDir, "trajectory.atif.json"), `${files["trajectory.atif.json"]}\n`);
  writeFileSync(join(o.bundleDir, "problem.md"), problem);
  writeJson(join(o.bundleDir, "verdict.json"), verdict);
  // The sealed evidence: what `wirebench regrade` re-derives the verdict from, with no farm.
  const sealed = report.run ? await controlCall<unknown>(o.farm, "GET", `/v1/runs/${report.run}/evidence`) : null;
  writeJson(join(o.bundleDir, "evidence.json"), sealed === null ? null : JSON.parse(redact(JSON.stringify(sealed), o.secrets).text));
  writeJson(
    join(o.bundleDir, "vendor-requests.json"),
    JSON.parse(redact(JSON.stringify({ development: { world: dev.world, roles: devRequests }, grading: { world: report.world ?? null, roles: gradingRequests } }), o.secrets).text),
  );
  writeJson(join(o.bundleDir, "proxy-log.json"), proxy.log);
  summary.timing.bundle_s = round((performance.now() - t3) / 1000);
  writeJson(join(o.bundleDir, "summary.json"), summary);
  quota.release();
  return summary;
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/**
 * Lines of `transcript.jsonl`: the JSON events a CLI printed on stdout, each
 * stamped with its time; with `everything` (the exec lane, whose agent may
 * print anything) every other line of stdout and stderr too, as text.
 */
function transcriptRecords(lines: RawLine[], agentStartMs: number, everything: boolean): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const ts = agentStartMs / 1000 + l.t;
    if (l.stream === "stdout" && l.text.startsWith("{")) {
      try {
        out.push(JSON.stringify({ ...JSON.parse(l.text), ts }));
        continue;
      } catch {
        /* not JSON: text */
      }
    }
    if (everything) out.push(JSON.stringify({ type: "output", stream: l.stream, text: l.text, ts }));
  }
  return out;
}
