/**
 * @module connector-sandbox
 * Runs a scenario's connector processes in the sandbox: the connector under
 * test is untrusted code, so it gets the same cell as the agent (its copy of
 * the repository at /workspace, no view of the checkout, the answer keys or
 * the farm's state) and reaches only the grading world's vendor surface.
 * Its webhook listener is reached through a host port that the farm
 * delivers to as it would to any local receiver.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConnectorHost, RunConnectorOptions, StartListenerOptions } from "../../harness/connector-host.ts";
import { readOutput, type Listener } from "../../harness/connector-process.ts";
import type { ConnectorRun, OutputFile } from "../../../declarations/evidence/verdict.ts";
import { SANDBOX, type SandboxSpec } from "./bwrap.ts";
import { envForSandbox, farmView } from "./farm-view.ts";
import { hostPortTo } from "./host-port.ts";
import { handOver, takeBack } from "./ownership.ts";
import { AllowlistProxy } from "./proxy.ts";
import { runSandboxed, streamText } from "./run-sandboxed.ts";

const INNER_SERVE_PORT = 4000;
const TAIL = 2000;

/** The vendor variables only, with OUTPUT_DIR as the sandbox sees it. */
function innerEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (!["PATH", "HOME", "TMPDIR", "LANG", "TZ", "OUTPUT_DIR", "SERVE_PORT"].includes(k)) out[k] = v;
  return { ...out, OUTPUT_DIR: `${SANDBOX.workspace}/output` };
}

/**
 * The declared outputs as the run left them. Ownership comes back to the
 * harness only when no listener still writes there: a listener running beside
 * the run shares the folder, and would lose it.
 */
function outputsOf(names: string[], outputDir: string, reclaim = true): Record<string, OutputFile> {
  if (reclaim) takeBack(outputDir);
  const outputs: Record<string, OutputFile> = {};
  for (const name of names) outputs[name] = readOutput(join(outputDir, name));
  return outputs;
}

/** Opens a sandboxed connector host for one grading world (a remote farm is seen at a local origin, see farm-view.ts). */
export async function openConnectorSandbox(farmUrl: string, world: { world: string; roles: string[] }): Promise<ConnectorHost> {
  const view = farmView(farmUrl);
  const root = mkdtempSync(join(tmpdir(), "wb-grade-sbx-"));
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

  /** Listeners started and not yet stopped. */
  let listening = 0;

  return {
    adopt(workspace: string) {
      chmodSync(workspace, 0o755);
      mkdirSync(join(workspace, "output"), { recursive: true });
      handOver(workspace);
    },

    async run(o: RunConnectorOptions): Promise<ConnectorRun> {
      handOver(o.outputDir);
      const r = await runSandboxed(spec(o.cwd, [...o.command, ...o.args], innerEnv(o.env)), { timeLimitS: o.timeoutMs / 1000, graceS: 0.5 });
      const stderrTail = streamText(r.lines, "stderr").slice(-TAIL);
      return {
        label: o.label,
        args: o.args,
        exitCode: r.timedOut ? null : r.exitCode,
        timedOut: r.timedOut,
        durationMs: Math.round(r.durationS * 1000),
        stderrTail,
        outputs: outputsOf(o.outputs, o.outputDir, listening === 0),
      };
    },

    async startListener(o: StartListenerOptions): Promise<Listener> {
      handOver(o.outputDir);
      let stopNow: () => void = () => {};
      const stopped = new Promise<void>((resolve) => (stopNow = resolve));
      const started = performance.now();
      // The listener runs until stopped: a long limit, cut short by stop().
      listening += 1;
      const running = runSandboxed(spec(o.cwd, [...o.command, ...o.args], { ...innerEnv(o.env), SERVE_PORT: String(INNER_SERVE_PORT) }, true), { timeLimitS: 3600, graceS: 2, until: stopped });
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
          listening -= 1;
          const stderrTail = streamText(r.lines, "stderr").slice(-TAIL);
          return {
            label: o.label,
            args: o.args,
            exitCode: wasRunning ? 0 : r.exitCode,
            timedOut: false,
            durationMs: Math.round(performance.now() - started),
            stderrTail,
            outputs: outputsOf(o.outputs, o.outputDir),
          };
        },
      };
    },

    async close() {
      await proxy.stop();
      listenerPort.server.close();
      takeBack(root);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
