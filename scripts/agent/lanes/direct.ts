/**
 * @module direct
 * The built-in agent loop: the harness calls the model (any OpenAI-compatible
 * Chat Completions endpoint, or the Anthropic Messages API for `anthropic/`
 * models) and runs each tool call inside the sandbox: `bash`, `read_file`,
 * `write_file`, `done`. Output is capped, turns are capped, and the wall
 * clock is the attempt's. Its transcript is JSON lines of its own, which
 * `normalize` reads like any CLI's stream.
 */
import type { DraftEvent, RawLine, Usage } from "../trajectory.ts";
import type { Lane, LaneSetup, ProviderFailure } from "./lane.ts";

/** Caps on what a tool returns to the model. */
export const DIRECT_LIMITS = { stdoutChars: 8000, stderrChars: 4000, readChars: 100_000, writeBytes: 1024 * 1024, turns: 60, nudges: 3 } as const;

export const DIRECT_TOOLS = [
  {
    name: "bash",
    description: "Run a bash command in /workspace. Returns the exit code and the tail of stdout and stderr.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
  { name: "read_file", description: "Read a text file (at most 100,000 characters).", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  {
    name: "write_file",
    description: "Write a whole file (at most 1 MiB), creating folders as needed.",
    parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
  },
  { name: "done", description: "Finish: the ticket is done.", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] } },
] as const;

export const DIRECT_SYSTEM = [
  "You are a software engineer working alone in /workspace on an API-integration ticket.",
  "/workspace holds PROBLEM.md, repo/ (change only this), optional materials/, and docs/.",
  "Vendor APIs and their docs are at the *_BASE_URL and *_DOCS_URL environment variables; credentials are in the environment too.",
  "Your tools are bash, read_file, write_file and done. Call done when the ticket is finished.",
].join("\n");

/** One line of the direct loop's transcript. */
export type DirectRecord =
  | { type: "system"; model: string; tools: string[] }
  | { type: "user"; content: string }
  | { type: "assistant"; turn: number; content: string; tool_calls: { id: string; name: string; arguments: unknown }[] }
  | { type: "tool_result"; turn: number; id: string; name: string; ok: boolean; content: string; exit_code: number | null }
  | { type: "usage"; input_tokens: number; cached_input_tokens: number; output_tokens: number }
  | { type: "error"; error: string; provider?: "usage_limit" | "provider_error" };

function records(lines: RawLine[]): { t: number; r: DirectRecord }[] {
  const out: { t: number; r: DirectRecord }[] = [];
  for (const l of lines) {
    if (l.stream !== "stdout") continue;
    try {
      out.push({ t: l.t, r: JSON.parse(l.text) as DirectRecord });
    } catch {
      /* not a record */
    }
  }
  return out;
}

export const directLane: Lane = {
  id: "direct",
  protocol: "openai-chat",
  keyEnv: "OPENAI_API_KEY",
  mounts: () => [],
  version: () => ({ ok: true, version: "wirebench-direct/1" }),
  prepare: () => {
    throw new Error("the direct lane runs in the harness (see direct-loop.ts), not as a command");
  },
  normalize(lines: RawLine[]): DraftEvent[] {
    const events: DraftEvent[] = [];
    const open = new Map<string, Extract<DraftEvent, { kind: "tool_call" }>>();
    for (const { t, r } of records(lines)) {
      if (r.type === "system") events.push({ kind: "system", t, model: r.model, tools: r.tools });
      else if (r.type === "user") events.push({ kind: "user", t, text: r.content });
      else if (r.type === "assistant") {
        if (r.content) events.push({ kind: "message", t, text: r.content });
        for (const c of r.tool_calls) {
          // `done` is how this loop's agent gives its final answer: a message, as every CLI's last turn is.
          if (c.name === "done") {
            events.push({ kind: "message", t, text: String((c.arguments as { summary?: unknown })?.summary ?? "") });
            continue;
          }
          const e: Extract<DraftEvent, { kind: "tool_call" }> = { kind: "tool_call", t, tool: c.name, input: c.arguments, result: null, t_end: null };
          open.set(c.id, e);
          events.push(e);
        }
      } else if (r.type === "tool_result") {
        const e = open.get(r.id);
        if (e) {
          e.result = { ok: r.ok, output: r.content.slice(0, 4000), exit_code: r.exit_code };
          e.t_end = t;
        }
      } else if (r.type === "error") events.push({ kind: "error", t, text: r.error });
    }
    return events;
  },
  usage(lines: RawLine[]): Usage {
    const u: Usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_usd: null };
    for (const { r } of records(lines)) {
      if (r.type !== "usage") continue;
      u.input_tokens += r.input_tokens;
      u.cached_input_tokens += r.cached_input_tokens;
      u.output_tokens += r.output_tokens;
    }
    return u;
  },
  providerFailure(lines: RawLine[]): ProviderFailure | null {
    for (const { r } of records(lines)) if (r.type === "error" && r.provider) return { kind: r.provider, message: r.error };
    return null;
  },
};

export type { LaneSetup };
