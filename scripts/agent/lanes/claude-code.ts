/**
 * @module claude-code
 * The `claude-code` lane: Anthropic's Claude Code CLI, headless
 * (`claude -p <prompt> --output-format stream-json --verbose
 * --dangerously-skip-permissions --model M`), against the provider or the
 * scripted model (`ANTHROPIC_BASE_URL`).
 *
 * What runs. `@anthropic-ai/claude-code` is a thin npm wrapper: its
 * postinstall hard-links the native single-file executable of the platform
 * package (`@anthropic-ai/claude-code-linux-x64`, ~370 MB, glibc, needs
 * nothing but libc/libm/libpthread/libdl/librt) over `bin/claude.exe`, and no
 * Node process is involved at run time. So the one host folder the sandbox
 * needs is the platform package's directory, resolved from the installed
 * node_modules; the binary is mounted, not the wrapper's `claude.exe`, so a
 * wrapper installed with `--ignore-scripts` (a stub in place of the binary)
 * still works. Bash, coreutils, git and a writable `/tmp` (the CLI puts
 * `/tmp/cc-socks/<pid>.sock` and shell snapshots there) are the sandbox's.
 *
 * Quiet. `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` is the switch that
 * matters: without it the CLI resolves and dials `api.anthropic.com:443`
 * five times per run (event logging, feature flags, ...) even with
 * `ANTHROPIC_BASE_URL` set; with it the only connection is to the model
 * endpoint. The other `DISABLE_*` variables are belt and braces.
 */
import { besideWrapper, installedWrapper } from "./installed-package.ts";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import type { DraftEvent, ToolResult, Usage } from "../trajectory.ts";
import type { Lane, LaneCommand, LaneSetup, ProviderFailure } from "./lane.ts";

const WRAPPER = "@anthropic-ai/claude-code";
/** Where the lane's host folders appear inside the sandbox. */
const SANDBOX_ROOT = "/opt/agents/claude-code";
/** Characters of a tool's output kept in the trajectory. */
const OUTPUT_CHARS = 4_000;

/** Environment every run gets (also written into `settings.json`). */
const QUIET_ENV: Record<string, string> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_BUG_COMMAND: "1",
  CLAUDE_CODE_ENABLE_TELEMETRY: "0",
};

// ---------------------------------------------------------------------------
// Installation

/** `linux-x64`, `linux-x64-musl`, `darwin-arm64`, ... as the wrapper's postinstall names platforms. */
function platformKey(): string {
  const os = platform();
  const cpu = arch();
  if (os === "linux") {
    const report = (process.report?.getReport?.() ?? null) as { header?: { glibcVersionRuntime?: string } } | null;
    const musl = report != null && report.header?.glibcVersionRuntime === undefined;
    return `linux-${cpu}${musl ? "-musl" : ""}`;
  }
  return `${os}-${cpu}`;
}

interface Install {
  /** The wrapper package's version. */
  version: string;
  /** Directory of the native platform package. */
  nativeDir: string;
  /** Name of the executable inside it. */
  binName: string;
  /** The platform package's directory name, used as the sandbox folder name. */
  nativePkg: string;
}

/** Resolves the installed CLI from this project's node_modules, or says why not. */
function resolveInstall(): { ok: true; install: Install } | { ok: false; reason: string } {
  const found = installedWrapper(WRAPPER);
  if (!found.ok) return found;
  const wrapper = found.wrapper;
  const key = platformKey();
  const nativePkg = `${WRAPPER}-${key}`;
  if (!wrapper.optionalDependencies[nativePkg]) return { ok: false, reason: `${WRAPPER} ${wrapper.version} ships no native build for ${key}` };
  const nativeJson = besideWrapper(wrapper, nativePkg);
  if (!nativeJson) return { ok: false, reason: `${nativePkg} (the native binary of ${WRAPPER}) is not installed; optional dependencies omitted?` };
  const native = JSON.parse(readFileSync(nativeJson, "utf8")) as { version: string };
  if (native.version !== wrapper.version) return { ok: false, reason: `${nativePkg} is ${native.version} but ${WRAPPER} is ${wrapper.version}` };
  const binName = key.startsWith("win32") ? "claude.exe" : "claude";
  const nativeDir = dirname(nativeJson);
  if (!existsSync(join(nativeDir, binName))) return { ok: false, reason: `${join(nativeDir, binName)} is missing` };
  return { ok: true, install: { version: wrapper.version, nativeDir, binName, nativePkg: nativePkg.split("/")[1] } };
}

function sandboxDirOf(install: Install): string {
  return `${SANDBOX_ROOT}/${install.nativePkg}`;
}

// ---------------------------------------------------------------------------
// Stream-json helpers

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

/** A tool_result's content (string, or blocks of text and images) as text. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((b: any) => (b?.type === "text" ? String(b.text ?? "") : b?.type ? `[${b.type}]` : JSON.stringify(b))).join("\n");
  }
  return content == null ? "" : JSON.stringify(content);
}

/** Exit code of a Bash result when the CLI says it: it reports a non-zero exit as `Exit code N`, and a zero exit as a result that is not an error. */
function exitCodeOf(tool: string, isError: boolean, text: string, meta: any): number | null {
  if (tool !== "Bash") return null;
  const m = /^(?:Error: )?Exit code (\d+)\b/.exec(text);
  if (m) return Number(m[1]);
  if (!isError && meta && typeof meta === "object" && meta.interrupted === false && !meta.backgroundTaskId) return 0;
  return null;
}

// ---------------------------------------------------------------------------
// Provider failures

/** Phrases the CLI (or the provider, echoed by it) uses for a plan or spend limit. */
const USAGE_LIMIT = [
  /usage limit reached/i,
  /usage limit will reset/i,
  /approaching your usage limit/i,
  /you(?:'|’)ve hit your (?:session |weekly |usage |opus |sonnet )?limit/i,
  /you have hit your (?:session |weekly |usage )?limit/i,
  /reached your (?:weekly |monthly |session )?usage limit/i,
  /spend limit reached/i,
  /usage credit limit reached/i,
];

/** Markers of a provider (not agent) failure in the CLI's own error text or error fields. */
const PROVIDER_ERROR = [
  /\bauthentication_failed\b/i,
  /\bauthentication_error\b/i,
  /\bpermission_error\b/i,
  /\bserver_error\b/i,
  /\bapi_error\b/i,
  /\boverloaded(?:_error)?\b/i,
  /failed to authenticate/i,
  /invalid api key/i,
  /oauth (?:access )?token has expired/i,
  /api error: 5\d\d\b/i,
  /server-side issue, usually temporary/i,
  /connection error/i,
  /request timed out/i,
];

/** The reset epoch the CLI gives after `|` (`Claude AI usage limit reached|1767225600`). */
function resetEpochOf(text: string): number | undefined {
  const m = /\|\s*(\d{9,11})\b/.exec(text);
  return m ? Number(m[1]) : undefined;
}

function classify(text: string, fields: { status?: number | null; type?: string | null } = {}): ProviderFailure | null {
  const message = text.trim().slice(0, 500) || `${fields.type ?? "error"}${fields.status ? ` (${fields.status})` : ""}`;
  if (USAGE_LIMIT.some((re) => re.test(text))) return { kind: "usage_limit", message, ...(resetEpochOf(text) ? { resetEpoch: resetEpochOf(text) } : {}) };
  // Structured fields of the CLI's terminal result (never tool output).
  if (fields.type === "billing_error") return { kind: "usage_limit", message };
  if (fields.status === 429 || fields.type === "rate_limit_error") return { kind: "usage_limit", message, ...(resetEpochOf(text) ? { resetEpoch: resetEpochOf(text) } : {}) };
  if ((fields.status != null && fields.status >= 500) || (fields.status != null && [401, 403].includes(fields.status))) return { kind: "provider_error", message };
  if (fields.type && PROVIDER_ERROR.some((re) => re.test(fields.type!))) return { kind: "provider_error", message };
  if (PROVIDER_ERROR.some((re) => re.test(text))) return { kind: "provider_error", message };
  return null;
}

// ---------------------------------------------------------------------------
// The lane

function usageFromResult(ev: any): Usage {
  const cost = typeof ev.total_cost_usd === "number" ? ev.total_cost_usd : null;
  const models = ev.modelUsage && typeof ev.modelUsage === "object" ? Object.values(ev.modelUsage as Record<string, any>) : [];
  if (models.length > 0) {
    // Every model the session used (the main loop and any side calls).
    const sum = (k: string) => models.reduce((a, m) => a + (Number(m?.[k]) || 0), 0);
    const cacheRead = sum("cacheReadInputTokens");
    return { input_tokens: sum("inputTokens") + sum("cacheCreationInputTokens") + cacheRead, cached_input_tokens: cacheRead, output_tokens: sum("outputTokens"), cost_usd: cost };
  }
  const u = ev.usage ?? {};
  const cacheRead = Number(u.cache_read_input_tokens) || 0;
  return {
    input_tokens: (Number(u.input_tokens) || 0) + (Number(u.cache_creation_input_tokens) || 0) + cacheRead,
    cached_input_tokens: cacheRead,
    output_tokens: Number(u.output_tokens) || 0,
    cost_usd: cost,
  };
}

export const claudeCodeLane: Lane = {
  id: "claude-code",
  protocol: "anthropic-messages",
  keyEnv: "ANTHROPIC_API_KEY",

  mounts() {
    const r = resolveInstall();
    if (!r.ok) return [];
    return [{ host: r.install.nativeDir, sandbox: sandboxDirOf(r.install) }];
  },

  version() {
    const r = resolveInstall();
    if (!r.ok) return r;
    const bin = join(r.install.nativeDir, r.install.binName);
    const out = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 30_000, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...QUIET_ENV } });
    if (out.error) return { ok: false, reason: `${bin} does not run: ${out.error.message}` };
    const m = /(\d+\.\d+\.\d+\S*)/.exec(out.stdout ?? "");
    if (out.status !== 0 || !m) return { ok: false, reason: `${bin} --version failed (exit ${out.status}): ${(out.stderr || out.stdout || "").trim().split("\n")[0]}` };
    if (m[1] !== r.install.version) return { ok: false, reason: `${bin} reports ${m[1]} but ${WRAPPER} is ${r.install.version}` };
    return { ok: true, version: m[1] };
  },

  prepare(setup: LaneSetup): LaneCommand {
    const r = resolveInstall();
    if (!r.ok) throw new Error(`claude-code lane: ${r.reason}`);
    // A fresh home: onboarding done, no auto-update, the dangerous-mode prompt skipped.
    mkdirSync(join(setup.hostHome, ".claude"), { recursive: true });
    writeFileSync(
      join(setup.hostHome, ".claude.json"),
      `${JSON.stringify(
        {
          hasCompletedOnboarding: true,
          lastOnboardingVersion: r.install.version,
          bypassPermissionsModeAccepted: true,
          autoUpdates: false,
          autoUpdaterStatus: "disabled",
          numStartups: 1,
        },
        null,
        2,
      )}\n`,
    );
    writeFileSync(join(setup.hostHome, ".claude", "settings.json"), `${JSON.stringify({ skipDangerousModePermissionPrompt: true, autoUpdates: false, env: QUIET_ENV }, null, 2)}\n`);
    return {
      argv: [`${sandboxDirOf(r.install)}/${r.install.binName}`, "-p", setup.prompt, "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--model", setup.model],
      env: {
        ...QUIET_ENV,
        ANTHROPIC_BASE_URL: setup.modelBaseUrl,
        ANTHROPIC_API_KEY: setup.apiKey,
        HOME: setup.home,
        // Claude Code refuses --dangerously-skip-permissions as root unless told it is sandboxed.
        IS_SANDBOX: "1",
        // Ten retries with backoff would turn a scripted provider failure into three minutes.
        ...(setup.scripted ? { CLAUDE_CODE_MAX_RETRIES: "1" } : {}),
      },
    };
  },

  normalize(lines, setup) {
    const events: DraftEvent[] = [];
    const pending = new Map<string, Extract<DraftEvent, { kind: "tool_call" }>>();
    let sawInit = false;
    let sawResult = false;
    const stderr: string[] = [];
    const userEvent = (t: number): DraftEvent => ({ kind: "user", t, text: setup.prompt });

    for (const line of lines) {
      if (line.stream === "stderr") {
        if (line.text.trim()) stderr.push(line.text.trim());
        continue;
      }
      const ev = parseJson(line.text);
      if (ev === undefined) {
        if (line.text.trim()) events.push({ kind: "error", t: line.t, text: cap(line.text.trim()) });
        continue;
      }
      if (ev.type === "system" && ev.subtype === "init") {
        if (sawInit) continue;
        sawInit = true;
        events.push({ kind: "system", t: line.t, model: String(ev.model ?? setup.model), tools: Array.isArray(ev.tools) ? ev.tools.map(String) : [] });
        events.push(userEvent(line.t));
      } else if (ev.type === "assistant") {
        if (!sawInit) {
          sawInit = true;
          events.push(userEvent(0));
        }
        const content = Array.isArray(ev.message?.content) ? ev.message.content : [];
        if (ev.is_api_error_message || ev.message?.model === "<synthetic>") {
          const text = content
            .map((b: any) => (b?.type === "text" ? b.text : ""))
            .join("\n")
            .trim();
          events.push({ kind: "error", t: line.t, text: cap(text || String(ev.error ?? "API error")) });
          continue;
        }
        for (const block of content) {
          if (block?.type === "text") {
            if (String(block.text ?? "").trim()) events.push({ kind: "message", t: line.t, text: String(block.text) });
          } else if (block?.type === "thinking") {
            if (String(block.thinking ?? "").trim()) events.push({ kind: "reasoning", t: line.t, text: String(block.thinking) });
          } else if (block?.type === "redacted_thinking") {
            events.push({ kind: "reasoning", t: line.t, text: "[redacted thinking]" });
          } else if (block?.type === "tool_use" || block?.type === "server_tool_use" || block?.type === "mcp_tool_use") {
            const call: Extract<DraftEvent, { kind: "tool_call" }> = { kind: "tool_call", t: line.t, tool: String(block.name ?? "?"), input: block.input ?? {}, result: null, t_end: null };
            events.push(call);
            if (block.id) pending.set(String(block.id), call);
          }
        }
      } else if (ev.type === "user") {
        const content = Array.isArray(ev.message?.content) ? ev.message.content : [];
        for (const block of content) {
          if (block?.type !== "tool_result") continue;
          const call = pending.get(String(block.tool_use_id));
          if (!call) continue;
          pending.delete(String(block.tool_use_id));
          const isError = block.is_error === true;
          const text = resultText(block.content);
          const result: ToolResult = { ok: !isError, output: cap(text), exit_code: exitCodeOf(call.tool, isError, text, ev.tool_use_result) };
          call.result = result;
          call.t_end = line.t;
        }
      } else if (ev.type === "result") {
        sawResult = true;
        if (ev.is_error) {
          const text = String(ev.result ?? "").trim() || (Array.isArray(ev.errors) ? ev.errors.join("; ") : "") || String(ev.subtype ?? "error");
          const last = events[events.length - 1];
          if (!(last?.kind === "error" && last.text === cap(text))) events.push({ kind: "error", t: line.t, text: cap(text) });
        }
      }
    }
    if (!sawInit) events.unshift(userEvent(0));
    if (!sawResult && stderr.length > 0) {
      // The CLI died before its result (a refused flag, a crash): keep what it said.
      events.push({ kind: "error", t: lines.length ? lines[lines.length - 1].t : 0, text: cap(stderr.slice(-20).join("\n")) });
    }
    return events;
  },

  usage(lines) {
    let last: any;
    const byMessage = new Map<string, any>();
    for (const line of lines) {
      if (line.stream !== "stdout") continue;
      const ev = parseJson(line.text);
      if (ev?.type === "result") last = ev;
      else if (ev?.type === "assistant" && ev.message?.usage && ev.message?.id) byMessage.set(String(ev.message.id), ev.message.usage);
    }
    if (last) return usageFromResult(last);
    // No result (killed): what the per-message usage says (output counts are partial there).
    let usage: Usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_usd: null };
    for (const u of byMessage.values()) {
      const part = usageFromResult({ usage: u });
      usage = {
        input_tokens: usage.input_tokens + part.input_tokens,
        cached_input_tokens: usage.cached_input_tokens + part.cached_input_tokens,
        output_tokens: usage.output_tokens + part.output_tokens,
        cost_usd: null,
      };
    }
    return usage;
  },

  providerFailure(lines) {
    // Only the CLI's own channels: non-JSON stdout, the terminal result, rate-limit events.
    // Tool output (user events) and the agent's text (assistant events) are never read.
    let found: ProviderFailure | null = null;
    let rejected: ProviderFailure | null = null;
    let lastResultOk = false;
    for (const line of lines) {
      if (line.stream !== "stdout") continue;
      const ev = parseJson(line.text);
      if (ev === undefined) {
        found ??= classifyLine(line.text);
        continue;
      }
      if (ev.type === "rate_limit_event") {
        const info = ev.rate_limit_info ?? {};
        if (info.status === "rejected") {
          const reset = Number(info.resetsAt);
          rejected = {
            kind: "usage_limit",
            message: `rate limit rejected${info.rateLimitType ? ` (${info.rateLimitType})` : ""}`,
            ...(Number.isFinite(reset) && reset > 0 ? { resetEpoch: reset > 1e12 ? Math.floor(reset / 1000) : reset } : {}),
          };
          lastResultOk = false;
        }
      } else if (ev.type === "result") {
        if (ev.is_error) {
          lastResultOk = false;
          const text = [String(ev.result ?? ""), ...(Array.isArray(ev.errors) ? ev.errors.map(String) : [])].join("\n");
          const f = classify(text, { status: typeof ev.api_error_status === "number" ? ev.api_error_status : null, type: typeof ev.api_error_type === "string" ? ev.api_error_type : null });
          if (f) {
            // A reset epoch announced by a rejected rate-limit event completes a limit the result names.
            if (f.kind === "usage_limit" && f.resetEpoch === undefined && rejected?.resetEpoch) f.resetEpoch = rejected.resetEpoch;
            found = f;
          }
        } else {
          lastResultOk = true;
        }
      }
    }
    if (found) return found;
    // A rejected limit the CLI got past (it waited, or fell back to another model) is no failure.
    if (rejected && !lastResultOk) return rejected;
    return null;
  },
};

/** A non-JSON stdout line: usage-limit phrases, then provider markers. */
function classifyLine(text: string): ProviderFailure | null {
  return text.trim() ? classify(text) : null;
}
