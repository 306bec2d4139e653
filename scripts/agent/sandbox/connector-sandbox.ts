/**
 * @module connector-sandbox
 * Runs a scenario's connector processes in the sandbox: the connector under
 * test is untrusted code, so it gets the same cell as the agent (its copy of
 * the repository at /workspace, no view of the checkout, the answer keys or
 * the farm's state) and reaches only the grading world's vendor surface.
 * Its webhook listener is reached through a host port that the farm
 * delivers to as it would to any local receiver.
 */
import { chmodSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConnectorHost, RunConnectorOptions, StartListenerOptions } from "../../harness/connector-host.ts";
import { readOutputs, type Listener } from "../../harness/connector-process.ts";
import type { ConnectorRun } from "../../../evidence/verdict.ts";
import { copyWorkspace } from "../../harness/workspace.ts";
import { SANDBOX, type SandboxSpec } from "./bwrap.ts";
import { CONNECTOR_LIMITS } from "./cell-limits.ts";
import { envForSandbox, farmView } from "./farm-view.ts";
import { hostPortTo } from "./host-port.ts";
import { handOver, handOverEntry } from "./ownership.ts";
import { capScratch } from "./scratch-quota.ts";
import { AllowlistProxy } from "./proxy.ts";
import { runSandboxed, streamText } from "./run-sandboxed.ts";

const INNER_SERVE_PORT = 4000;
const TAIL = 2000;
/** Room for a grading cell's connector copies, their outputs and their home. */
const SCRATCH_BYTES = 2 * 1024 ** 3;

/** The vendor variables only, with OUTPUT_DIR as the sandbox sees it. */
function innerEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (!["PATH", "HOME", "TMPDIR", "LANG", "TZ", "OUTPUT_DIR", "SERVE_PORT"].includes(k)) out[k] = v;
  return { ...out, OUTPUT_DIR: `${SANDBOX.workspace}/output` };
}

/** Opens a sandboxed connector host for one grading world (a remote farm is seen at a local origin, see farm-view.ts). */
export async function openConnectorSandbox(farmUrl: string, world: { world: string; roles: string[] }): Promise<ConnectorHost> {
  const view = farmView(farmUrl);
  const root = mkdtempSync(join(tmpdir(), "wb-grade-sbx-"));
  const quota = capScratch(root, SCRATCH_BYTES);
  chmodSync(root, 0o711);
  const bridge = join(root, "bridge");
  const home = join(root, "home");
  mkdirSync(bridge);
  mkdirSync(home);
  handOver(bridge);
  handOver(home);
  const proxy = new AllowlistProxy({
    bridgeDir: bridge,
    farmOrigin: farmUrl,
    sandboxOrigin: view.sandboxOrigin,
    allowedPrefixes: world.roles.map((r) => `/w/${world.world}/${r}`),
    modelOrigin: null,
    egressAllow: [],
  });
  await proxy.start();
  const listenerPort = await hostPortTo(join(bridge, "serve.sock"));
  // Only the listener's cell serves the reverse socket: a run started beside a listener (a
  // cut-over while events arrive) would otherwise take the socket over and, on exit, cut the
  // listener off from every delivery.
  const spec = (workspace: string, argv: string[], env: Record<string, string>, listens = false): SandboxSpec => ({
    workspace,
    home,
    bridgeDir: bridge,
    mounts: [],
    env: envForSandbox(view, env),
    forward: [{ port: view.port, socket: AllowlistProxy.SOCKETS.farm, host: view.host }],
    reverse: listens ? [{ socket: "serve.sock", port: INNER_SERVE_PORT }] : [],
    argv,
  });

  return {
    // The copy is handed over before any connector process exists, so no link can be swapped in mid-walk.
    workspace(source: string, starter: string) {
      const workspace = copyWorkspace(source, root, starter);
      chmodSync(workspace, 0o755);
      mkdirSync(join(workspace, "output"), { recursive: true });
      handOver(workspace);
      return workspace;
    },

    async run(o: RunConnectorOptions): Promise<ConnectorRun> {
      // The harness may have made the output folder again (the connector removed it): give that folder, and only it, back.
      handOverEntry(o.outputDir);
      const r = await runSandboxed(spec(o.cwd, [...o.command, ...o.args], innerEnv(o.env)), { timeLimitS: o.timeoutMs / 1000, graceS: 0.5, limits: CONNECTOR_LIMITS });
      const stderrTail = streamText(r.lines, "stderr").slice(-TAIL);
      return {
        label: o.label,
        args: o.args,
        exitCode: r.timedOut ? null : r.exitCode,
        timedOut: r.timedOut,
        durationMs: Math.round(r.durationS * 1000),
        stderrTail,
        outputs: readOutputs(o.outputs, o.outputDir),
      };
    },

    async startListener(o: StartListenerOptions): Promise<Listener> {
      handOverEntry(o.outputDir);
      let stopNow: () => void = () => {};
      const stopped = new Promise<void>((resolve) => (stopNow = resolve));
      const started = performance.now();
      // The listener runs until stopped: a long limit, cut short by stop().
      const running = runSandboxed(spec(o.cwd, [...o.command, ...o.args], { ...innerEnv(o.env), SERVE_PORT: String(INNER_SERVE_PORT) }, true), {
        timeLimitS: 3600,
        graceS: 2,
        until: stopped,
        limits: CONNECTOR_LIMITS,
      });
      let exited = false;
      void running.then(() => (exited = true));
      const deadline = Date.now() + o.readyMs;
      while (!exited && Date.now() < deadline) {
        try {
          await fetch(`http://127.0.0.1:${listenerPort.port}/`, { signal: AbortSignal.timeout(500) });
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      return {
        port: listenerPort.port,
        stop: async () => {
          const wasRunning = !exited;
          stopNow();
          const r = await running;
          const stderrTail = streamText(r.lines, "stderr").slice(-TAIL);
          return {
            label: o.label,
            args: o.args,
            exitCode: wasRunning ? 0 : r.exitCode,
            timedOut: false,
            durationMs: Math.round(performance.now() - started),
            stderrTail,
            outputs: readOutputs(o.outputs, o.outputDir),
          };
        },
      };
    },

    async close() {
      await proxy.stop();
      listenerPort.server.close();
      quota.release();
    },
  };
}
