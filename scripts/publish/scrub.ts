/**
 * @module scrub
 * What publication removes: response headers, cookies and forwarding headers
 * from vendor logs; this runner's home and scratch paths, checkout path and
 * host name from every file. Simulator-issued credentials stay (checks are
 * about how they were used). A registered provider secret anywhere refuses
 * the release, naming where.
 */
import { hostname, homedir, tmpdir } from "node:os";
import { projectRoot } from "../farm/paths.ts";
import { PROXY_SEQ_HEADER } from "../agent/sandbox/proxy.ts";

const DROPPED_HEADER = /^(cookie|set-cookie|forwarded|via|x-forwarded-.*|x-real-ip|cf-.*|true-client-ip|x-client-ip)$/i;

/** Request-log rows with cookies, forwarding and harness headers removed. */
export function scrubRequestRows<T>(rows: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== "object") return v;
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
      if (k === "headers" && x && typeof x === "object" && !Array.isArray(x) && "method" in o) {
        out[k] = Object.fromEntries(Object.entries(x as Record<string, string>).filter(([h]) => !DROPPED_HEADER.test(h) && h !== PROXY_SEQ_HEADER));
      } else if (k === "responseHeaders") continue;
      else out[k] = walk(x);
    }
    return out;
  };
  return walk(rows) as T;
}

/** Rewrites this machine's paths and name in text. */
export function scrubText(text: string): string {
  const pairs: [string, string][] = [
    [projectRoot(), "<wirebench>"],
    [tmpdir(), "<tmp>"],
    [homedir(), "<home>"],
  ];
  let out = text;
  for (const [from, to] of pairs) if (from.length > 1) out = out.split(from).join(to);
  const host = hostname();
  if (host.length >= 4) out = out.replace(new RegExp(`\\b${host.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "g"), "<runner>");
  return out;
}

/** Provider secrets publication must never contain: the provider keys in this environment, and WIREBENCH_PUBLISH_SECRETS (comma-separated). */
export function registeredSecrets(): string[] {
  const names = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "DEEPSEEK_API_KEY"];
  const values = [...names.map((n) => process.env[n]), ...(process.env.WIREBENCH_PUBLISH_SECRETS ?? "").split(",")];
  return [...new Set(values.filter((v): v is string => typeof v === "string" && v.length >= 8))];
}
