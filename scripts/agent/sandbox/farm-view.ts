/**
 * @module farm-view
 * How the sandbox sees the farm. A farm on this machine is seen where it is
 * (the bridge listens on its own loopback address and port). A remote farm,
 * reached over TLS, cannot be: the sandbox has no network and the proxy must
 * see paths to allowlist them. It is seen at a local origin instead, which the
 * harness's proxy forwards to the farm; URLs of the farm's origin are rewritten
 * to the local one in the environment and in what the farm answers.
 * `WIREBENCH_REMOTE=1` treats a farm on this machine as remote (a rehearsal).
 */
import { farmIsRemote } from "../../harness/relay.ts";
import { bridgeHost } from "./bwrap.ts";

/** Port inside the sandbox at which a remote farm is seen. */
export const SANDBOX_REMOTE_FARM_PORT = 8790;

export interface FarmView {
  /** The farm's own origin (`https://farm.example`). */
  farmOrigin: string;
  /** The origin the sandbox uses; equal to `farmOrigin` for a farm on this machine. */
  sandboxOrigin: string;
  /** Where the bridge listens inside the sandbox. */
  host: string;
  port: number;
  /** Whether URLs must be rewritten between the two origins. */
  remote: boolean;
}

export function farmView(farmUrl: string): FarmView {
  const url = new URL(farmUrl);
  if (!farmIsRemote(farmUrl)) {
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    return { farmOrigin: url.origin, sandboxOrigin: url.origin, host: bridgeHost(farmUrl), port, remote: false };
  }
  return { farmOrigin: url.origin, sandboxOrigin: `http://127.0.0.1:${SANDBOX_REMOTE_FARM_PORT}`, host: "127.0.0.1", port: SANDBOX_REMOTE_FARM_PORT, remote: true };
}

/** A text with the farm's origin replaced by the sandbox's. */
export function toSandbox(view: FarmView, text: string): string {
  return view.remote ? text.split(view.farmOrigin).join(view.sandboxOrigin) : text;
}

/** An environment with every value's farm origin replaced by the sandbox's. */
export function envForSandbox(view: FarmView, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, toSandbox(view, v)]));
}
