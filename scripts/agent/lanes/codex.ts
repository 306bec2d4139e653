/**
 * @module codex
 * The `codex` lane: OpenAI's Codex CLI, headless (`codex exec <prompt> --json
 * --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check
 * --ephemeral -C /workspace --model M`), against the provider or the
 * scripted model, through a provider of its own in `config.toml`
 * (`wire_api = "responses"`, key from `OPENAI_API_KEY`).
 *
 * What runs. `@openai/codex` is a Node wrapper that `execve`s the native
 * binary of its platform package (`@openai/codex-linux-x64`, an alias of
 * `@openai/codex@<version>-linux-x64`): a static musl executable at
 * `vendor/<triple>/bin/codex`, laid out by `vendor/<triple>/codex-package.json`.
 * The lane runs that binary directly (no Node) and mounts the whole
 * `vendor/<triple>` folder: `bin/` also holds `codex-code-mode-host`, the
 * process that runs the JavaScript cells of the models that work in code
 * mode, and `codex-path/` its bundled `rg`.
 *
 * Configuration (a fresh `CODEX_HOME` in the home):
 * - Codex's own sandbox and approvals are off (the harness sandboxes it);
 * - no update check, no analytics, no feedback upload, no history file,
 *   no hosted web search (it would reach the internet around the proxy), no
 *   plugins or apps (the curated plugin sync dials github.com and chatgpt.com
 *   at every start, through `git` and HTTP);
 * - commands see the whole environment: by default Codex hides every
 *   variable whose name contains KEY, SECRET or TOKEN from them, which would
 *   hide the vendors' credentials the prompt promises;
 * - retries of a connection that fails are bounded (by default Codex waits
 *   for the network forever, so an unreachable endpoint would hold the
 *   attempt to its wall clock); a real provider keeps Codex's 4 + 5 request
 *   and stream retries (30 tries, ~25 s), the scripted model gets 1 + 1
 *   (4 tries, about a second);
 * - a scripted model (which Codex has no metadata for) gets the metadata of
 *   the catalog's first model, so it is offered the same tools, in the same
 *   request, as that real model (without metadata Codex offers no
 *   `apply_patch`, and says so in an `error` item).
 *
 * Its `--json` stream: `thread.started`, `turn.started`, `item.started` /
 * `item.completed` (`agent_message`, `reasoning`, `command_execution`,
 * `file_change`, `mcp_tool_call`, `web_search`, `todo_list`, `error`), then
 * `turn.completed {usage}` or `turn.failed {error}`; `error {message}` for
 * retries and failures.
 */
import { besideWrapper, installedWrapper } from "./installed-package.ts";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { DraftEvent, ToolResult, Usage } from "../trajectory.ts";
import type { Lane, LaneCommand, LaneSetup, ProviderFailure } from "./lane.ts";

const WRAPPER = "@openai/codex";
/** Where the lane's host folder appears inside the sandbox. */
const SANDBOX_ROOT = "/opt/agents/codex";
/** Characters of a tool's output kept in the trajectory. */
const OUTPUT_CHARS = 4_000;
/** The provider id in `config.toml`. */
const PROVIDER = "wirebench";
/** The model catalog written for a model Codex does not know. */
const CATALOG_FILE = "wirebench-models.json";

/** Platform package and target triple, as the wrapper's `bin/codex.js` maps them. */
const TARGETS: Record<string, { pkg: string; triple: string }> = {
  "linux-x64": { pkg: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "linux-arm64": { pkg: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "darwin-x64": { pkg: "@openai/codex-darwin-x64", triple: "x86_64-apple-darwin" },
  "darwin-arm64": { pkg: "@openai/codex-darwin-arm64", triple: "aarch64-apple-darwin" },
};

// ---------------------------------------------------------------------------
// Installation

interface Install {
  /** The wrapper package's version. */
  version: string;
  /** `vendor/<triple>` of the platform package: the folder mounted. */
  vendorDir: string;
  triple: string;
  /** The executable, relative to `vendorDir` (`bin/codex`). */
  entrypoint: string;
}

/** Resolves the installed CLI from this project's node_modules, or says why not. */
function resolveInstall(): { ok: true; install: Install } | { ok: false; reason: string } {
  const found = installedWrapper(WRAPPER);
  if (!found.ok) return found;
  const wrapper = found.wrapper;
  const key = `${platform()}-${arch()}`;
  const target = TARGETS[key];
  if (!target || !wrapper.optionalDependencies[target.pkg]) return { ok: false, reason: `${WRAPPER} ${wrapper.version} ships no native build for ${key}` };
  const nativeJson = besideWrapper(wrapper, target.pkg);
  if (!nativeJson) return { ok: false, reason: `${target.pkg} (the native binary of ${WRAPPER}) is not installed; optional dependencies omitted?` };
  const vendorDir = join(dirname(nativeJson), "vendor", target.triple);
  let entrypoint = "bin/codex";
  const layoutFile = join(vendorDir, "codex-package.json");
  if (existsSync(layoutFile)) {
    const layout = JSON.parse(readFileSync(layoutFile, "utf8")) as { version?: string; entrypoint?: string };
    if (layout.version && layout.version !== wrapper.version) return { ok: false, reason: `${target.pkg} is ${layout.version} but ${WRAPPER} is ${wrapper.version}` };
    if (layout.entrypoint) entrypoint = layout.entrypoint;
  }
  if (!existsSync(join(vendorDir, entrypoint))) return { ok: false, reason: `${join(vendorDir, entrypoint)} is missing` };
  return { ok: true, install: { version: wrapper.version, vendorDir, triple: target.triple, entrypoint } };
}

function sandboxDirOf(install: Install): string {
  return `${SANDBOX_ROOT}/${install.triple}`;
}

/**
 * Runs the binary on the host (`--version`, `debug models`) with a clean
 * environment and a throwaway CODEX_HOME: at every start Codex links helper
 * binaries into `$CODEX_HOME/tmp` unless that is under the temp dir.
 */
function runScratch(bin: string, args: string[]): SpawnSyncReturns<string> {
  const scratch = mkdtempSync(join(tmpdir(), "wirebench-codex-"));
  try {
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch, CODEX_HOME: join(scratch, ".codex"), NO_COLOR: "1" };
    mkdirSync(env.CODEX_HOME);
    return spawnSync(bin, args, { encoding: "utf8", timeout: 30_000, maxBuffer: 64 * 1024 * 1024, env });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Codex's bundled model catalog (`codex debug models`), by binary. */
const catalogs = new Map<string, { models: any[] }>();

function bundledCatalog(install: Install): { models: any[] } | null {
  const bin = join(install.vendorDir, install.entrypoint);
  const known = catalogs.get(bin);
  if (known) return known;
  const out = runScratch(bin, ["debug", "models"]);
  if (out.status !== 0) return null;
  try {
    const catalog = JSON.parse(out.stdout) as { models: any[] };
    if (!Array.isArray(catalog.models)) return null;
    catalogs.set(bin, catalog);
    return catalog;
  } catch {
    return null;
  }
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

// ---------------------------------------------------------------------------
// --json helpers

function parseJson(text: string): any | undefined {
  const s = text.trim();
  if (!s.startsWith("{")) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function cap(s: string, n = OUTPUT_CHARS): string {
  return s.length > n ? `${s.slice(0, n)}\n[... ${s.length - n} more characters]` : s;
}

/** Lines Codex prints on stderr on every run, which say nothing about this one. */
const STDERR_NOISE = [/^Reading additional input from stdin/, /^WARNING: proceeding, even though we could not create PATH aliases/];

/** The trajectory tool call an item stands for, without its result. */
function toolCallOf(item: any, t: number): Extract<DraftEvent, { kind: "tool_call" }> | null {
  const base = { kind: "tool_call" as const, t, result: null, t_end: null };
  switch (item?.type) {
    case "command_execution":
      return { ...base, tool: "shell", input: { command: String(item.command ?? "") } };
    case "file_change":
      return { ...base, tool: "apply_patch", input: { changes: Array.isArray(item.changes) ? item.changes : [] } };
    case "mcp_tool_call":
      return { ...base, tool: `${item.server ?? "mcp"}.${item.tool ?? "?"}`, input: item.arguments ?? {} };
    case "web_search":
      return { ...base, tool: "web_search", input: { query: String(item.query ?? "") } };
    case "todo_list":
      return { ...base, tool: "update_plan", input: { items: Array.isArray(item.items) ? item.items : [] } };
    case "agent_message":
    case "reasoning":
    case "error":
    case undefined:
      return null;
    default: {
      // Anything else the agent did (sub-agent calls, tools of later versions): the item as it came.
      const { id: _id, type, status: _status, ...rest } = item;
      return { ...base, tool: String(rest.tool ?? type), input: rest };
    }
  }
}

/** A finished item's result. */
function resultOf(item: any): ToolResult {
  switch (item?.type) {
    case "command_execution": {
      const exit = typeof item.exit_code === "number" ? item.exit_code : null;
      return { ok: exit === 0, output: cap(String(item.aggregated_output ?? "")), exit_code: exit };
    }
    case "file_change": {
      const changes: any[] = Array.isArray(item.changes) ? item.changes : [];
      return { ok: item.status === "completed", output: changes.map((c) => `${c?.kind ?? "?"} ${c?.path ?? "?"}`).join("\n"), exit_code: null };
    }
    case "mcp_tool_call": {
      const failed = item.status === "failed" || item.error != null;
      const text = failed ? String(item.error?.message ?? item.error ?? "failed") : item.result == null ? "" : JSON.stringify(item.result);
      return { ok: !failed, output: cap(text), exit_code: null };
    }
    default:
      return { ok: item?.status !== "failed", output: "", exit_code: null };
  }
}

// ---------------------------------------------------------------------------
// Provider failures

/** Codex's words for a plan, quota or rate limit (its own messages, or the provider's echoed). */
const USAGE_LIMIT = [
  /you(?:'|’)ve hit your usage limit/i,
  /you have hit your usage limit/i,
  /\busage_limit_reached\b/,
  /\busage_not_included\b/,
  /quota exceeded/i,
  /exceeded your current quota/i,
  /\binsufficient_quota\b/,
  /\b429 Too Many Requests\b/i,
  /\brate_limit_exceeded\b/,
  /rate limit (?:reached|exceeded)/i,
];

/** Markers of a provider (not agent) failure in Codex's own error text. */
const PROVIDER_ERROR = [
  /unexpected status \d{3}/i,
  /exceeded retry limit/i,
  /stream disconnected/i,
  /stream closed before response\.completed/i,
  /idle timeout waiting for SSE/i,
  /error sending request/i,
  /connection failed/i,
  /experiencing high demand/i,
  /\binternal[_ ]server[_ ]error\b/i,
  /\bserver_error\b/,
  /\bserver_overloaded\b/,
  /service unavailable/i,
  /bad gateway/i,
  /gateway timeout/i,
  /\bunauthorized\b/i,
  /invalid api key|incorrect api key/i,
  /response\.failed/,
];

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * The reset time Codex gives: a `resets_at` epoch when the provider's body is
 * echoed, else its own "try again at 10:45 AM" (today or tomorrow) or "try
 * again at Dec 4th, 2026 9:45 AM", in local time.
 */
export function resetEpochOf(text: string, nowMs = Date.now()): number | undefined {
  const epoch = /"?resets_at"?\s*[:=]\s*(\d{9,13})/.exec(text);
  if (epoch) {
    const n = Number(epoch[1]);
    return n > 1e12 ? Math.floor(n / 1000) : n;
  }
  const m = /try again at (?:([A-Za-z]{3})[a-z]* (\d{1,2})(?:st|nd|rd|th)?,? (\d{4}),? )?(\d{1,2}):(\d{2})\s*([AP]M)/i.exec(text);
  if (!m) return undefined;
  let hour = Number(m[4]) % 12;
  if (m[6].toUpperCase() === "PM") hour += 12;
  const minute = Number(m[5]);
  if (m[1]) {
    const month = MONTHS.indexOf(m[1].toLowerCase());
    if (month < 0) return undefined;
    return Math.floor(new Date(Number(m[3]), month, Number(m[2]), hour, minute).getTime() / 1000);
  }
  const now = new Date(nowMs);
  const at = new Date(now.getFullYear(), now.getMonth(), now.getDate(), hour, minute);
  // A time of day already past (by more than a minute, the message's precision) is tomorrow's.
  if (at.getTime() < nowMs - 60_000) at.setDate(at.getDate() + 1);
  return Math.floor(at.getTime() / 1000);
}

function classify(text: string): ProviderFailure | null {
  const message = text.trim().slice(0, 500);
  if (!message) return null;
  if (USAGE_LIMIT.some((re) => re.test(text))) {
    const reset = resetEpochOf(text);
    return { kind: "usage_limit", message, ...(reset ? { resetEpoch: reset } : {}) };
  }
  if (PROVIDER_ERROR.some((re) => re.test(text))) return { kind: "provider_error", message };
  return null;
}

// ---------------------------------------------------------------------------
// The lane

export const codexLane: Lane = {
  id: "codex",
  protocol: "openai-responses",
  keyEnv: "OPENAI_API_KEY",

  mounts() {
    const r = resolveInstall();
    if (!r.ok) return [];
    return [{ host: r.install.vendorDir, sandbox: sandboxDirOf(r.install) }];
  },

  version() {
    const r = resolveInstall();
    if (!r.ok) return r;
    const bin = join(r.install.vendorDir, r.install.entrypoint);
    const out = runScratch(bin, ["--version"]);
    if (out.error) return { ok: false, reason: `${bin} does not run: ${out.error.message}` };
    const m = /(\d+\.\d+\.\d+\S*)/.exec(out.stdout ?? "");
    if (out.status !== 0 || !m) return { ok: false, reason: `${bin} --version failed (exit ${out.status}): ${(out.stderr || out.stdout || "").trim().split("\n")[0]}` };
    if (m[1] !== r.install.version) return { ok: false, reason: `${bin} reports ${m[1]} but ${WRAPPER} is ${r.install.version}` };
    return { ok: true, version: m[1] };
  },

  prepare(setup: LaneSetup): LaneCommand {
    const r = resolveInstall();
    if (!r.ok) throw new Error(`codex lane: ${r.reason}`);
    const hostCodexHome = join(setup.hostHome, ".codex");
    const codexHome = `${setup.home}/.codex`;
    mkdirSync(hostCodexHome, { recursive: true });

    // The scripted model (or, when the harness does not say, a model served from this machine).
    const scripted = setup.scripted ?? isLoopback(setup.modelBaseUrl);
    // A scripted model Codex has no metadata for: the catalog's first model's metadata under its name.
    let catalogLine: string[] = [];
    if (scripted) {
      const catalog = bundledCatalog(r.install);
      if (catalog && !catalog.models.some((m) => m?.slug === setup.model)) {
        const listed = catalog.models.filter((m) => m?.visibility === "list" && m?.supported_in_api !== false);
        const template = [...(listed.length ? listed : catalog.models)].sort((a, b) => (Number(a?.priority) || 0) - (Number(b?.priority) || 0))[0];
        if (template) {
          const entry = { ...template, slug: setup.model, display_name: setup.model, visibility: "hide" };
          writeFileSync(join(hostCodexHome, CATALOG_FILE), `${JSON.stringify({ models: [...catalog.models, entry] })}\n`);
          catalogLine = [`model_catalog_json = ${tomlString(`${codexHome}/${CATALOG_FILE}`)}`];
        }
      }
    }

    // The endpoint's origin (`https://api.openai.com`, the scripted server) plus `/v1`, unless it already ends so.
    const origin = setup.modelBaseUrl.replace(/\/+$/, "");
    const baseUrl = /\/v1$/.test(origin) ? origin : `${origin}/v1`;
    const config = [
      "# Written by wirebench for one attempt.",
      `model = ${tomlString(setup.model)}`,
      `model_provider = ${tomlString(PROVIDER)}`,
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      "check_for_update_on_startup = false",
      'web_search = "disabled"',
      ...catalogLine,
      "",
      "[features]",
      // The curated plugin sync dials github.com (git and API) and chatgpt.com at every start.
      "plugins = false",
      "remote_plugin = false",
      "apps = false",
      // Unbounded, a model endpoint that cannot be reached is waited for until the wall clock.
      "unbounded_connection_retries = false",
      "",
      "[analytics]",
      "enabled = false",
      "",
      "[feedback]",
      "enabled = false",
      "",
      "[history]",
      'persistence = "none"',
      "",
      "[shell_environment_policy]",
      'inherit = "all"',
      "ignore_default_excludes = true",
      "",
      `[model_providers.${PROVIDER}]`,
      `name = ${tomlString(PROVIDER)}`,
      `base_url = ${tomlString(baseUrl)}`,
      'wire_api = "responses"',
      `env_key = ${tomlString(codexLane.keyEnv)}`,
      // Codex's own defaults (4 + 5: 30 tries, ~25 s of backoff) for a real provider; a scripted failure fails fast.
      `request_max_retries = ${scripted ? 1 : 4}`,
      `stream_max_retries = ${scripted ? 1 : 5}`,
      "stream_idle_timeout_ms = 300000",
      "",
    ].join("\n");
    writeFileSync(join(hostCodexHome, "config.toml"), config);

    return {
      argv: [
        `${sandboxDirOf(r.install)}/${r.install.entrypoint}`,
        "exec",
        setup.prompt,
        "--json",
        "--strict-config",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "--ephemeral",
        "--color",
        "never",
        "-C",
        setup.workspace,
        "--model",
        setup.model,
      ],
      env: {
        CODEX_HOME: codexHome,
        HOME: setup.home,
        [codexLane.keyEnv]: setup.apiKey,
        NO_COLOR: "1",
      },
    };
  },

  normalize(lines, setup) {
    const events: DraftEvent[] = [];
    const pending = new Map<string, Extract<DraftEvent, { kind: "tool_call" }>>();
    let started = false;
    let ended = false;
    const stderr: string[] = [];
    const userEvent = (t: number): DraftEvent => ({ kind: "user", t, text: setup.prompt });
    const error = (t: number, text: string) => {
      const last = events[events.length - 1];
      if (last?.kind === "error" && last.text === cap(text)) return;
      events.push({ kind: "error", t, text: cap(text) });
    };

    for (const line of lines) {
      if (line.stream === "stderr") {
        const text = line.text.trim();
        if (text && !STDERR_NOISE.some((re) => re.test(text))) stderr.push(text);
        continue;
      }
      const ev = parseJson(line.text);
      if (ev === undefined) {
        if (line.text.trim()) error(line.t, line.text.trim());
        continue;
      }
      if (!started && ev.type !== "thread.started") {
        started = true;
        events.push(userEvent(0));
      }
      switch (ev.type) {
        case "thread.started":
          if (started) break;
          started = true;
          events.push({ kind: "system", t: line.t, model: setup.model, tools: [] });
          events.push(userEvent(line.t));
          break;
        case "item.started": {
          const call = toolCallOf(ev.item, line.t);
          if (call && ev.item?.id != null && !pending.has(String(ev.item.id))) {
            events.push(call);
            pending.set(String(ev.item.id), call);
          }
          break;
        }
        case "item.completed": {
          const item = ev.item ?? {};
          if (item.type === "agent_message") {
            if (String(item.text ?? "").trim()) events.push({ kind: "message", t: line.t, text: String(item.text) });
          } else if (item.type === "reasoning") {
            if (String(item.text ?? "").trim()) events.push({ kind: "reasoning", t: line.t, text: String(item.text) });
          } else if (item.type === "error") {
            error(line.t, String(item.message ?? "error"));
          } else {
            let call = item.id != null ? pending.get(String(item.id)) : undefined;
            if (call) pending.delete(String(item.id));
            else {
              call = toolCallOf(item, line.t) ?? undefined;
              if (call) events.push(call);
            }
            if (call) {
              call.result = resultOf(item);
              call.t_end = line.t;
            }
          }
          break;
        }
        case "turn.completed":
          ended = true;
          break;
        case "turn.failed":
          ended = true;
          error(line.t, String(ev.error?.message ?? "turn failed"));
          break;
        case "error":
          error(line.t, String(ev.message ?? "error"));
          break;
      }
    }
    if (!started) events.unshift(userEvent(0));
    if (!ended && stderr.length > 0) {
      // The CLI died before its turn ended (a refused flag or config, a crash): keep what it said.
      events.push({ kind: "error", t: lines.length ? lines[lines.length - 1].t : 0, text: cap(stderr.slice(-20).join("\n")) });
    }
    return events;
  },

  usage(lines) {
    const usage: Usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_usd: null };
    for (const line of lines) {
      if (line.stream !== "stdout") continue;
      const ev = parseJson(line.text);
      if (ev?.type !== "turn.completed" || !ev.usage) continue;
      usage.input_tokens += Number(ev.usage.input_tokens) || 0;
      usage.cached_input_tokens += Number(ev.usage.cached_input_tokens) || 0;
      usage.output_tokens += Number(ev.usage.output_tokens) || 0;
    }
    return usage;
  },

  providerFailure(lines) {
    // Only the CLI's own channels: lines that are not JSON events, `turn.failed` and `error`
    // envelopes. Items (command output, the agent's text, file changes) are never read.
    let failed: ProviderFailure | null = null;
    let transient: ProviderFailure | null = null;
    let raw: ProviderFailure | null = null;
    let completed = false;
    for (const line of lines) {
      const ev = parseJson(line.text);
      if (ev === undefined) {
        raw ??= classify(line.text);
        continue;
      }
      if (line.stream !== "stdout") continue;
      if (ev.type === "turn.failed") {
        completed = false;
        failed = classify(String(ev.error?.message ?? "")) ?? failed;
      } else if (ev.type === "error") {
        transient = classify(String(ev.message ?? "")) ?? transient;
      } else if (ev.type === "turn.completed") {
        // Codex got past the errors it reported ("Reconnecting... 1/2"): they were retries.
        completed = true;
        transient = null;
      }
    }
    if (failed) return failed;
    return completed ? null : (transient ?? raw);
  },
};
