/**
 * @module opencode
 * The OpenCode lane: `opencode run <prompt> --format json` against an
 * OpenAI-compatible endpoint (OpenRouter for real models, the scripted model
 * server's `openai-chat` protocol offline).
 *
 * What the CLI needs, checked on opencode-ai 1.18.33:
 * - one native binary (Bun single-file executable, links only libc) from the
 *   platform package `opencode-<os>-<arch>[-baseline][-musl]`, mounted at
 *   `/opt/agents/opencode/bin/opencode`;
 * - nothing from the npm registry: `@ai-sdk/openai-compatible` is bundled in
 *   the binary (its provider table maps that exact package name to an
 *   embedded chunk; any other name, or a versioned spec, would be installed
 *   into `$XDG_CACHE_HOME/opencode/packages/`). What does reach the registry
 *   is a background install of `@opencode-ai/plugin` into every config
 *   directory that has no `node_modules` or whose `package-lock.json` lacks
 *   it; `prepare` writes a satisfied manifest so that install never starts;
 * - no models.dev catalogue (`OPENCODE_DISABLE_MODELS_FETCH`): the provider
 *   and its one model are declared in `opencode.json`;
 * - ripgrep for its grep/glob tools: it uses `rg` from PATH or
 *   `$XDG_CACHE_HOME/opencode/bin/rg`, else downloads it from GitHub; `prepare`
 *   copies the `rg` shipped in the installed Codex platform package there
 *   when one is found.
 * The harness must give the CLI `/dev/null` as stdin: when stdin is not a
 * TTY, `opencode run` reads it to the end and appends it to the prompt.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { DraftEvent, RawLine, ToolResult, Usage } from "../trajectory.ts";
import type { Lane, LaneCommand, LaneSetup, ProviderFailure } from "./lane.ts";

/** Where the lane's host folders appear inside the sandbox. */
export const OPENCODE_SANDBOX_ROOT = "/opt/agents/opencode";
const SANDBOX_BIN_DIR = `${OPENCODE_SANDBOX_ROOT}/bin`;
/** The provider id the lane declares in `opencode.json` (`--model wirebench/<model>`). */
export const OPENCODE_PROVIDER_ID = "wirebench";
const KEY_ENV = "OPENROUTER_API_KEY";
/** Characters of a tool's output kept in the trajectory. */
const OUTPUT_CAP = 4_000;
/** Context and output limits declared for the model (OpenCode compacts the conversation near the context limit). */
const MODEL_LIMIT = { context: 128_000, output: 32_000 };

const requireHere = createRequire(import.meta.url);

/** Platform package names in the order opencode-ai's postinstall tries them. */
function platformPackages(): string[] {
  const os = platform() === "win32" ? "windows" : platform();
  const cpu = arch();
  const base = `opencode-${os}-${cpu}`;
  let avx2 = false;
  if (cpu === "x64" && os === "linux") {
    try {
      avx2 = /(^|\s)avx2(\s|$)/i.test(readFileSync("/proc/cpuinfo", "utf8"));
    } catch {
      avx2 = false;
    }
  } else if (cpu === "x64") {
    avx2 = true; // Other systems: try the regular build first.
  }
  const baseline = cpu === "x64" && !avx2;
  if (os === "linux") {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    const musl = existsSync("/etc/alpine-release") || (report?.header !== undefined && !report.header.glibcVersionRuntime);
    if (cpu === "x64") {
      if (musl) return baseline ? [`${base}-baseline-musl`, `${base}-musl`, `${base}-baseline`, base] : [`${base}-musl`, `${base}-baseline-musl`, base, `${base}-baseline`];
      return baseline ? [`${base}-baseline`, base, `${base}-baseline-musl`, `${base}-musl`] : [base, `${base}-baseline`, `${base}-musl`, `${base}-baseline-musl`];
    }
    return musl ? [`${base}-musl`, base] : [base, `${base}-musl`];
  }
  if (cpu === "x64") return baseline ? [`${base}-baseline`, base] : [base, `${base}-baseline`];
  return [base];
}

interface Installed {
  /** Host folder holding the native binary. */
  binDir: string;
  /** File name of the binary in that folder. */
  binName: string;
  /** Version from the platform package's package.json. */
  version: string;
}

/** Finds the installed native binary, or says why not. */
export function findOpencode(): Installed | { error: string } {
  // The project installs the platform packages directly (exact optional dependencies): the
  // opencode-ai wrapper lists platform builds the registry does not serve, which breaks npm ci.
  let fromWrapper = requireHere;
  let picked: ReturnType<typeof statSync> | undefined;
  try {
    const wrapperJson = requireHere.resolve("opencode-ai/package.json");
    fromWrapper = createRequire(wrapperJson);
    // When the wrapper is there, its postinstall picked a build: a hard link or copy of one platform package's binary.
    const wrapperBin = join(dirname(wrapperJson), "bin", "opencode.exe");
    picked = existsSync(wrapperBin) ? statSync(wrapperBin) : undefined;
  } catch {
    /* no wrapper: resolve the platform packages from the project */
  }
  const binName = platform() === "win32" ? "opencode.exe" : "opencode";
  const found: Installed[] = [];
  for (const name of platformPackages()) {
    let pkgJson: string;
    try {
      pkgJson = fromWrapper.resolve(`${name}/package.json`);
    } catch {
      continue;
    }
    const binDir = join(dirname(pkgJson), "bin");
    const file = join(binDir, binName);
    if (!existsSync(file)) continue;
    const version = String((JSON.parse(readFileSync(pkgJson, "utf8")) as { version?: string }).version ?? "unknown");
    const candidate = { binDir, binName, version };
    const st = statSync(file);
    if (picked && st.ino === picked.ino && st.dev === picked.dev) return candidate;
    found.push(candidate);
  }
  if (found.length > 0) return found[0];
  return { error: `no opencode platform package installed (tried ${platformPackages().join(", ")})` };
}

/** The `rg` the installed Codex platform package ships (a static build), if any. */
function findRipgrep(): string | undefined {
  const triples: Record<string, string> = {
    "linux-x64": "x86_64-unknown-linux-musl",
    "linux-arm64": "aarch64-unknown-linux-musl",
    "darwin-x64": "x86_64-apple-darwin",
    "darwin-arm64": "aarch64-apple-darwin",
  };
  const key = `${platform()}-${arch()}`;
  const triple = triples[key];
  if (!triple) return undefined;
  try {
    const pkg = requireHere.resolve(`@openai/codex-${key}/package.json`);
    const rg = join(dirname(pkg), "vendor", triple, "codex-path", "rg");
    return existsSync(rg) ? rg : undefined;
  } catch {
    return undefined;
  }
}

/** The Chat Completions base: `/v1` appended unless the URL already ends in a version (`https://openrouter.ai/api` -> `.../api/v1`). */
export function chatBaseUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return /\/v\d+$/.test(new URL(trimmed).pathname) ? trimmed : `${trimmed}/v1`;
}

/** The configuration `prepare` writes to `$XDG_CONFIG_HOME/opencode/opencode.json`. */
export function opencodeConfig(setup: Pick<LaneSetup, "model" | "modelBaseUrl">): Record<string, unknown> {
  const model = `${OPENCODE_PROVIDER_ID}/${setup.model}`;
  return {
    autoupdate: false,
    share: "disabled",
    // Only the declared provider: OPENROUTER_API_KEY in the environment would otherwise also enable OpenCode's own openrouter provider.
    enabled_providers: [OPENCODE_PROVIDER_ID],
    model,
    // Titles, summaries and compaction use the same model, never another provider.
    small_model: model,
    provider: {
      [OPENCODE_PROVIDER_ID]: {
        // Exactly this name: it is the copy bundled in the binary (a versioned spec would be fetched).
        npm: "@ai-sdk/openai-compatible",
        name: "wirebench",
        options: { baseURL: chatBaseUrl(setup.modelBaseUrl), apiKey: `{env:${KEY_ENV}}` },
        models: { [setup.model]: { name: setup.model, tool_call: true, limit: MODEL_LIMIT } },
      },
    },
    // Everything without asking (`--auto` also approves whatever asks anyway).
    permission: { edit: "allow", bash: "allow", webfetch: "allow", external_directory: "allow", doom_loop: "allow" },
    experimental: { openTelemetry: false },
  };
}

function prepare(setup: LaneSetup): LaneCommand {
  const installed = findOpencode();
  const binName = "error" in installed ? "opencode" : installed.binName;
  const configDir = join(setup.hostHome, ".config", "opencode");
  for (const d of [configDir, join(configDir, "node_modules"), join(setup.hostHome, ".local", "share"), join(setup.hostHome, ".local", "state"), join(setup.hostHome, ".cache", "opencode", "bin")]) {
    mkdirSync(d, { recursive: true });
  }
  writeFileSync(join(configDir, "opencode.json"), JSON.stringify(opencodeConfig(setup), null, 2) + "\n");
  // OpenCode installs @opencode-ai/plugin into each config directory in the background unless its
  // node_modules exists and package-lock.json already lists it: a satisfied manifest, so it never
  // reaches for the registry (no plugins are configured, so nothing loads it).
  const pluginVersion = "error" in installed ? "latest" : installed.version;
  writeFileSync(join(configDir, "package.json"), JSON.stringify({ private: true, dependencies: { "@opencode-ai/plugin": pluginVersion } }, null, 2) + "\n");
  writeFileSync(
    join(configDir, "package-lock.json"),
    JSON.stringify({ name: "opencode-config", lockfileVersion: 3, requires: true, packages: { "": { dependencies: { "@opencode-ai/plugin": pluginVersion } } } }, null, 2) + "\n",
  );
  const rg = findRipgrep();
  if (rg) {
    const target = join(setup.hostHome, ".cache", "opencode", "bin", "rg");
    copyFileSync(rg, target);
    chmodSync(target, 0o755);
  }
  const home = setup.home.replace(/\/+$/, "");
  return {
    argv: [
      `${SANDBOX_BIN_DIR}/${binName}`,
      "run",
      setup.prompt,
      "--format",
      "json",
      "--model",
      `${OPENCODE_PROVIDER_ID}/${setup.model}`,
      // The project directory (the bash tool's cwd, the root file tools resolve against).
      "--dir",
      setup.workspace,
      // A title of our own: no extra model call to generate one.
      "--title",
      "wirebench",
      // No external plugins.
      "--pure",
      // Approve any permission request instead of auto-rejecting it.
      "--auto",
      // Print reasoning parts as `reasoning` events.
      "--thinking",
    ],
    env: {
      XDG_CONFIG_HOME: `${home}/.config`,
      XDG_DATA_HOME: `${home}/.local/share`,
      XDG_STATE_HOME: `${home}/.local/state`,
      XDG_CACHE_HOME: `${home}/.cache`,
      [KEY_ENV]: setup.apiKey,
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    },
  };
}

function version(): { ok: true; version: string } | { ok: false; reason: string } {
  const installed = findOpencode();
  if ("error" in installed) return { ok: false, reason: installed.error };
  // A throwaway home: even --version creates its cache and data folders.
  const home = mkdtempSync(join(tmpdir(), "wirebench-opencode-version-"));
  try {
    const r = spawnSync(join(installed.binDir, installed.binName), ["--version"], {
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        XDG_DATA_HOME: join(home, ".local", "share"),
        XDG_STATE_HOME: join(home, ".local", "state"),
        XDG_CACHE_HOME: join(home, ".cache"),
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_MODELS_FETCH: "1",
      },
    });
    const out = (r.stdout ?? "").trim().split("\n").pop() ?? "";
    if (r.status !== 0 || !out) return { ok: false, reason: `opencode --version failed: ${(r.error?.message ?? r.stderr ?? "").trim().split("\n")[0] || `exit ${r.status}`}` };
    return { ok: true, version: out };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

interface Parsed {
  line: RawLine;
  event: any;
}

/** JSON events (stdout lines that parse to an object with a `type`) and the other lines. */
function split(lines: RawLine[]): { events: Parsed[]; other: RawLine[] } {
  const events: Parsed[] = [];
  const other: RawLine[] = [];
  for (const line of lines) {
    const text = line.text.trim();
    if (!text) continue;
    let event: any;
    if (line.stream === "stdout" && text.startsWith("{")) {
      try {
        event = JSON.parse(text);
      } catch {
        event = undefined;
      }
    }
    if (event && typeof event === "object" && typeof event.type === "string") events.push({ line, event });
    else other.push(line);
  }
  return { events, other };
}

function cap(text: string): string {
  return text.length > OUTPUT_CAP ? `${text.slice(0, OUTPUT_CAP)}\n[... ${text.length - OUTPUT_CAP} more characters]` : text;
}

/** One line for an error event: `APIError 429: Rate limit exceeded`. */
function errorText(error: any): string {
  if (!error || typeof error !== "object") return String(error ?? "unknown error");
  const name = typeof error.name === "string" ? error.name : "Error";
  const data = error.data && typeof error.data === "object" ? error.data : {};
  const message = typeof data.message === "string" ? data.message : typeof error.message === "string" ? error.message : JSON.stringify(data);
  return `${name}${typeof data.statusCode === "number" ? ` ${data.statusCode}` : ""}: ${message}`;
}

function toolResult(state: any): ToolResult | null {
  if (!state || (state.status !== "completed" && state.status !== "error")) return null;
  const exit = state.metadata && typeof state.metadata.exit === "number" ? (state.metadata.exit as number) : null;
  if (state.status === "error") return { ok: false, output: cap(String(state.error ?? "")), exit_code: exit };
  const output = typeof state.output === "string" ? state.output : JSON.stringify(state.output ?? "");
  return { ok: exit === null || exit === 0, output: cap(output), exit_code: exit };
}

function normalize(lines: RawLine[], setup: Pick<LaneSetup, "model" | "prompt">): DraftEvent[] {
  const drafts: DraftEvent[] = [
    { kind: "system", t: 0, model: setup.model, tools: [] },
    { kind: "user", t: 0, text: setup.prompt },
  ];
  for (const { line, event } of split(lines).events) {
    const part = event.part ?? {};
    switch (event.type) {
      case "text":
        if (typeof part.text === "string" && part.text.trim()) drafts.push({ kind: "message", t: line.t, text: part.text });
        break;
      case "reasoning":
        if (typeof part.text === "string" && part.text.trim()) drafts.push({ kind: "reasoning", t: line.t, text: part.text });
        break;
      case "tool_use": {
        const state = part.state ?? {};
        const start = Number(state.time?.start);
        const end = Number(state.time?.end);
        // The event is printed when the tool finished: the line's time is the end, the part's own clock gives the duration.
        const duration = Number.isFinite(start) && Number.isFinite(end) && end >= start ? (end - start) / 1000 : 0;
        const result = toolResult(state);
        drafts.push({
          kind: "tool_call",
          t: Math.max(0, Math.round((line.t - duration) * 1000) / 1000),
          tool: String(part.tool ?? "unknown"),
          input: state.input ?? null,
          result,
          t_end: result ? line.t : null,
        });
        break;
      }
      case "error":
        drafts.push({ kind: "error", t: line.t, text: errorText(event.error) });
        break;
      default:
        // step_start / step_finish carry no content of their own (usage comes from step_finish).
        break;
    }
  }
  return drafts;
}

/**
 * Sums `step_finish` parts. OpenCode's `tokens.input` excludes cached tokens, so
 * `input_tokens` adds cache reads and writes back (every prompt token, as Codex
 * reports it) and `cached_input_tokens` is the cache reads; `output_tokens`
 * includes reasoning. Cost is null when no step priced anything (a custom model
 * has no price table, so OpenCode reports 0).
 */
function usage(lines: RawLine[]): Usage {
  let input = 0;
  let cached = 0;
  let output = 0;
  let cost = 0;
  for (const { event } of split(lines).events) {
    if (event.type !== "step_finish") continue;
    const tokens = event.part?.tokens ?? {};
    const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    input += num(tokens.input) + num(tokens.cache?.read) + num(tokens.cache?.write);
    cached += num(tokens.cache?.read);
    output += num(tokens.output) + num(tokens.reasoning);
    cost += num(event.part?.cost);
  }
  return { input_tokens: input, cached_input_tokens: cached, output_tokens: output, cost_usd: cost > 0 ? cost : null };
}

/** Errors that are the run's own doing (stopped, context or output too long), not the provider's. */
const NOT_PROVIDER = new Set(["MessageAbortedError", "ContextOverflowError", "MessageOutputLengthError", "StructuredOutputError"]);
const USAGE_LIMIT = /\b429\b|rate[\s_-]?limit|insufficient|too many requests/i;

/** Epoch seconds a rate limit resets, from the error OpenCode printed (OpenRouter's X-RateLimit-Reset, or Retry-After seconds). */
function resetEpochOf(event: any): number | undefined {
  const data = event?.error?.data ?? {};
  const toEpoch = (v: unknown): number | undefined => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) return undefined;
    return n > 1e12 ? Math.round(n / 1000) : Math.round(n);
  };
  const headers: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((data.responseHeaders ?? {}) as Record<string, unknown>)) headers[k.toLowerCase()] = v;
  try {
    const body = typeof data.responseBody === "string" ? JSON.parse(data.responseBody) : undefined;
    for (const [k, v] of Object.entries((body?.error?.metadata?.headers ?? {}) as Record<string, unknown>)) headers[k.toLowerCase()] ??= v;
  } catch {
    // Not JSON: no headers in the body.
  }
  const reset = toEpoch(headers["x-ratelimit-reset"]);
  if (reset) return reset;
  const after = Number(headers["retry-after"]);
  const at = Number(event?.timestamp);
  if (Number.isFinite(after) && after > 0 && Number.isFinite(at)) return Math.round(at / 1000 + after);
  return undefined;
}

function providerFailure(lines: RawLine[]): ProviderFailure | null {
  const { events, other } = split(lines);
  // Only the CLI's own channels: non-JSON lines and error events, never tool output.
  const channels: { text: string; event?: any }[] = [];
  for (const line of other) channels.push({ text: line.text.trim() });
  for (const { event } of events) {
    if (event.type !== "error") continue;
    if (NOT_PROVIDER.has(String(event.error?.name))) continue;
    const data = event.error?.data ?? {};
    const text = [errorText(event.error), typeof data.responseBody === "string" ? data.responseBody : ""].filter(Boolean).join(" ");
    channels.push({ text, event });
  }
  const limited = channels.find((c) => USAGE_LIMIT.test(c.text));
  if (limited) {
    const failure: ProviderFailure = { kind: "usage_limit", message: limited.text.slice(0, 500) };
    const reset = limited.event ? resetEpochOf(limited.event) : undefined;
    if (reset) failure.resetEpoch = reset;
    return failure;
  }
  const failed = channels.find((c) => c.event || /error/i.test(c.text));
  if (failed) return { kind: "provider_error", message: failed.text.slice(0, 500) };
  return null;
}

export const opencodeLane: Lane = {
  id: "opencode",
  protocol: "openai-chat",
  keyEnv: KEY_ENV,
  mounts() {
    const installed = findOpencode();
    if ("error" in installed) return [];
    return [{ host: installed.binDir, sandbox: SANDBOX_BIN_DIR }];
  },
  version,
  prepare,
  normalize,
  usage,
  providerFailure,
};
