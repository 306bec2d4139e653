/**
 * @module direct-loop
 * Runs the direct lane: the model is called from the harness, every tool
 * call runs in the sandbox through `exec`. Each step is written as one JSON
 * line (the lane's transcript) through `emit`.
 */
import { DIRECT_LIMITS, DIRECT_SYSTEM, DIRECT_TOOLS, type DirectRecord } from "./direct.ts";

/** Runs one command in the sandbox. */
export type SandboxExec = (argv: string[], opts: { stdin?: string; timeLimitS: number }) => Promise<{ exitCode: number | null; stdout: string; stderr: string; timedOut: boolean }>;

export interface DirectLoopOptions {
  model: string;
  /** Chat Completions base (`http://127.0.0.1:PORT`, `https://api.openai.com`), or an Anthropic base for `anthropic/` models. */
  baseUrl: string;
  apiKey: string;
  prompt: string;
  deadlineMs: number;
  exec: SandboxExec;
  emit: (r: DirectRecord) => void;
}

export type DirectStop = "done" | "turn_cap" | "wall_clock" | "provider_error" | "usage_limit";

interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

interface ModelTurn {
  text: string;
  calls: ToolCall[];
  usage: { input_tokens: number; cached_input_tokens: number; output_tokens: number };
}

class ProviderFailed extends Error {
  readonly kind: "usage_limit" | "provider_error";
  constructor(message: string, kind: "usage_limit" | "provider_error") {
    super(message);
    this.kind = kind;
  }
}

/** Calls an OpenAI-compatible Chat Completions endpoint, retrying 5xx twice. */
async function chatTurn(opts: DirectLoopOptions, messages: unknown[]): Promise<ModelTurn> {
  const body = { model: opts.model, messages, tools: DIRECT_TOOLS.map((t) => ({ type: "function", function: t })) };
  let last = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, 500 * attempt));
    let res: Response;
    try {
      res = await fetch(`${opts.baseUrl.replace(/\/$/, "")}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${opts.apiKey}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(Math.max(1000, opts.deadlineMs - Date.now())),
      });
    } catch (err) {
      last = `model endpoint unreachable: ${(err as Error).message}`;
      continue;
    }
    const text = await res.text();
    if (res.status === 429 && /usage|quota|limit|insufficient/i.test(text)) throw new ProviderFailed(`usage limit: ${text.slice(0, 300)}`, "usage_limit");
    if (res.status >= 500 || res.status === 429) {
      last = `provider answered ${res.status}: ${text.slice(0, 300)}`;
      continue;
    }
    if (!res.ok) throw new ProviderFailed(`provider answered ${res.status}: ${text.slice(0, 300)}`, "provider_error");
    const parsed = JSON.parse(text);
    const msg = parsed.choices?.[0]?.message ?? {};
    const calls: ToolCall[] = (msg.tool_calls ?? []).map((c: any) => {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(c.function?.arguments ?? "{}");
      } catch {
        args = { _unparsed: c.function?.arguments };
      }
      return { id: c.id, name: c.function?.name, arguments: args };
    });
    const u = parsed.usage ?? {};
    return {
      text: typeof msg.content === "string" ? msg.content : "",
      calls,
      usage: { input_tokens: u.prompt_tokens ?? 0, cached_input_tokens: u.prompt_tokens_details?.cached_tokens ?? 0, output_tokens: u.completion_tokens ?? 0 },
    };
  }
  throw new ProviderFailed(last, "provider_error");
}

const tail = (s: string, n: number) => (s.length > n ? `…${s.slice(-n)}` : s);

async function runTool(opts: DirectLoopOptions, call: ToolCall): Promise<{ ok: boolean; content: string; exit_code: number | null; done?: boolean }> {
  const remainingS = Math.max(1, Math.floor((opts.deadlineMs - Date.now()) / 1000));
  const a = call.arguments;
  switch (call.name) {
    case "bash": {
      const r = await opts.exec(["bash", "-c", String(a.command ?? "")], { timeLimitS: Math.min(600, remainingS) });
      const content = `exit=${r.exitCode ?? "killed"}${r.timedOut ? " (timed out)" : ""}\nstdout:\n${tail(r.stdout, DIRECT_LIMITS.stdoutChars)}\nstderr:\n${tail(r.stderr, DIRECT_LIMITS.stderrChars)}`;
      return { ok: r.exitCode === 0, content, exit_code: r.exitCode };
    }
    case "read_file": {
      const r = await opts.exec(["cat", "--", String(a.path ?? "")], { timeLimitS: Math.min(60, remainingS) });
      if (r.exitCode !== 0) return { ok: false, content: tail(r.stderr, DIRECT_LIMITS.stderrChars), exit_code: r.exitCode };
      return { ok: true, content: r.stdout.slice(0, DIRECT_LIMITS.readChars), exit_code: 0 };
    }
    case "write_file": {
      const content = String(a.content ?? "");
      if (Buffer.byteLength(content) > DIRECT_LIMITS.writeBytes) return { ok: false, content: `refused: more than ${DIRECT_LIMITS.writeBytes} bytes`, exit_code: null };
      // Written from inside the sandbox, so a path (or a symlink in it) can only reach what the sandbox can.
      const r = await opts.exec(["bash", "-c", 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"', "write_file", String(a.path ?? "")], { stdin: content, timeLimitS: Math.min(60, remainingS) });
      return r.exitCode === 0
        ? { ok: true, content: `wrote ${a.path} (${Buffer.byteLength(content)} bytes)`, exit_code: 0 }
        : { ok: false, content: tail(r.stderr, DIRECT_LIMITS.stderrChars), exit_code: r.exitCode };
    }
    case "done":
      return { ok: true, content: "done", exit_code: null, done: true };
    default:
      return { ok: false, content: `unknown tool "${call.name}"; the tools are bash, read_file, write_file and done`, exit_code: null };
  }
}

/** Runs the loop to its end and says why it stopped. */
export async function runDirectLoop(opts: DirectLoopOptions): Promise<DirectStop> {
  opts.emit({ type: "system", model: opts.model, tools: DIRECT_TOOLS.map((t) => t.name) });
  opts.emit({ type: "user", content: opts.prompt });
  const messages: unknown[] = [
    { role: "system", content: DIRECT_SYSTEM },
    { role: "user", content: opts.prompt },
  ];
  let nudges = 0;
  for (let turn = 1; turn <= DIRECT_LIMITS.turns; turn++) {
    if (Date.now() >= opts.deadlineMs) {
      opts.emit({ type: "error", error: `wall-clock budget exhausted after ${turn - 1} turn(s)` });
      return "wall_clock";
    }
    let reply: ModelTurn;
    try {
      reply = await chatTurn(opts, messages);
    } catch (err) {
      const kind = err instanceof ProviderFailed ? err.kind : "provider_error";
      opts.emit({ type: "error", error: (err as Error).message, provider: kind });
      return kind;
    }
    opts.emit({ type: "usage", ...reply.usage });
    opts.emit({ type: "assistant", turn, content: reply.text, tool_calls: reply.calls });
    messages.push({
      role: "assistant",
      content: reply.text || null,
      ...(reply.calls.length ? { tool_calls: reply.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) } : {}),
    });
    if (!reply.calls.length) {
      if (++nudges > DIRECT_LIMITS.nudges) return "done";
      messages.push({ role: "user", content: "Continue with the tools, or call done when the ticket is finished." });
      continue;
    }
    for (const call of reply.calls) {
      const r = await runTool(opts, call);
      opts.emit({ type: "tool_result", turn, id: call.id, name: call.name, ok: r.ok, content: r.content.slice(0, 4000), exit_code: r.exit_code });
      messages.push({ role: "tool", tool_call_id: call.id, content: r.content });
      if (r.done) return "done";
    }
  }
  opts.emit({ type: "error", error: `turn cap of ${DIRECT_LIMITS.turns} reached` });
  return "turn_cap";
}
