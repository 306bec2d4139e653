import { UsageError } from "../kit/usage-error.ts";
import type { FarmHandle } from "./control-client.ts";
import { DEV_ADMIN_TOKEN } from "../../workers/middleware/principal/dev-token.ts";

/** The admin token a local farm uses when WIREBENCH_ADMIN_TOKEN is not set (refused off loopback). */
export const LOCAL_ADMIN_TOKEN = DEV_ADMIN_TOKEN;

/** URL of the farm `npm start` brings up on this machine. */
export function defaultFarmUrl(): string {
  return `http://127.0.0.1:${process.env.PORT || 8787}`;
}

async function reachable(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(1500) });
    const body = (await res.json()) as { service?: string };
    return body.service === "wirebench farm";
  } catch {
    return false;
  }
}

/**
 * Resolves `--farm`: a URL means an existing farm, called with a participant
 * key (WIREBENCH_KEY) when one is set, else the admin token
 * (WIREBENCH_ADMIN_TOKEN). Without one, the local farm of `npm start` is
 * reused when it runs; otherwise `mode` decides: start a throwaway in-memory
 * farm on a free port (always with an admin token), or fail with a hint.
 */
export async function openFarm(url: string | undefined, mode: "start" | "require" = "start"): Promise<FarmHandle> {
  const operator = process.env.WIREBENCH_ADMIN_TOKEN || LOCAL_ADMIN_TOKEN;
  const adminToken = process.env.WIREBENCH_KEY || operator;
  if (url) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--farm must be a URL, got "${url}"`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`--farm must be an http(s) URL, got "${url}"`);
    return { url: parsed.origin, adminToken, close: async () => {} };
  }
  if (await reachable(defaultFarmUrl())) return { url: defaultFarmUrl(), adminToken, close: async () => {} };
  if (mode === "require") throw new UsageError(`no farm at ${defaultFarmUrl()}: start one with "npm start" or pass --farm URL`);
  // Miniflare (with undici and ws) loads only here: a command given --farm, or refused for its
  // input, answers without it (about a third of the CLI's start-up).
  const { startLocalFarm } = await import("./local-farm.ts");
  const farm = await startLocalFarm({ port: 0, adminToken: operator });
  return { url: farm.url, adminToken: operator, close: () => farm.stop() };
}
