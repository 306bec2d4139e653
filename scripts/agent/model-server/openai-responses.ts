/**
 * @module openai-responses
 * The OpenAI Responses API (`POST .../responses`, streamed) for the scripted
 * model server: Codex speaks it (`wire_api = "responses"`).
 *
 * Turns. Codex keeps no state on the server (`store: false`): every request
 * carries the whole conversation in `input`, the model's own earlier output
 * included (`function_call`, `custom_tool_call`, `local_shell_call`,
 * `reasoning` items and assistant `message`s), each followed by what the
 * client answered (`*_output` items). One model turn is a run of consecutive
 * model items, so the number of such runs is the turn to play.
 *
 * Tools. A step becomes a call of what the request offers (in `tools`, or in
 * an `additional_tools` item of `input` for the models Codex drives in "code
 * mode"): `write` goes through `apply_patch` (the freeform `custom` tool Codex
 * offers the models it knows, or a function taking `input`) as an `Add File`
 * patch with the whole content (Codex writes an added file over an existing
 * one); content a patch cannot carry exactly (empty, `\r`, or no final
 * newline) and a client offering no `apply_patch` fall back to the shell.
 * `bash` and `read` (`cat`) go through the shell tool offered: `exec_command`
 * (`{cmd, yield_time_ms}`), `shell` (`{command: argv}`), `shell_command`
 * (`{command}`) or the built-in `local_shell`. In code mode the only tool is
 * `exec`, a JavaScript cell, which calls `tools.apply_patch(...)` or
 * `tools.exec_command(...)`. `say` and `done` are an assistant message, which
 * ends Codex's turn.
 *
 * Long commands. `exec_command` hands back a session after at most 30 s
 * ("Process running with session ID N"); the adapter then polls it with
 * `write_stdin` (call ids `poll_scripted_*`, which count as no turn) until it
 * exits, and a code-mode cell polls inside its own JavaScript, so a step's
 * command always runs to its end (or to the harness's wall clock).
 *
 * Stream. `response.created`, `response.output_item.added`, the deltas
 * (`response.output_text.delta`, `response.function_call_arguments.delta`,
 * `response.custom_tool_call_input.delta`), `response.output_item.done` (the
 * item Codex records) and `response.completed` with usage (Codex fails the
 * turn with "stream closed before response.completed" without it).
 */
import type { ServerResponse } from "node:http";
import type { ScriptStep } from "../script.ts";
import type { ModelProtocol, ProtocolContext } from "./protocol.ts";

/** Item types the model produces (everything else in `input` is the client's). */
const MODEL_ITEMS = new Set(["function_call", "custom_tool_call", "local_shell_call", "reasoning", "web_search_call", "tool_search_call", "image_generation_call"]);

function isModelItem(item: any): boolean {
  if (!item || typeof item !== "object") return false;
  if (MODEL_ITEMS.has(item.type)) return true;
  // Messages: Codex replays the model's as `{type: "message", role: "assistant"}` (older clients omit `type`).
  return (item.type === "message" || item.type === undefined) && item.role === "assistant";
}

/** Call ids of the adapter's own polls of a command still running (they play no step). */
const POLL_PREFIX = "poll_scripted_";

function isPoll(item: any): boolean {
  return typeof item?.call_id === "string" && item.call_id.startsWith(POLL_PREFIX);
}

function turnOf(body: any): number {
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  let turns = 0;
  let run: any[] | null = null;
  const close = () => {
    if (run && !run.every(isPoll)) turns++;
    run = null;
  };
  for (const item of input) {
    if (isModelItem(item)) (run ??= []).push(item);
    else close();
  }
  close();
  return turns;
}

/** The session of a command the client says is still running after the last call, if any. */
function runningSession(body: any): number | null {
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  const last = input[input.length - 1];
  if (last?.type !== "function_call_output") return null;
  const output = typeof last.output === "string" ? last.output : JSON.stringify(last.output ?? "");
  const m = /Process running with session ID (\d+)/.exec(output);
  return m ? Number(m[1]) : null;
}

/** One tool as offered in `body.tools`. */
interface OfferedTool {
  name: string;
  /** `function`, `custom`, `local_shell`, ... */
  type: string;
  /** Property names of a function's argument schema. */
  props: string[];
}

/** The tools a request offers (namespaced tools flattened). */
export function offeredTools(body: any): OfferedTool[] {
  const out: OfferedTool[] = [];
  const visit = (tools: unknown) => {
    if (!Array.isArray(tools)) return;
    for (const t of tools as any[]) {
      if (!t || typeof t !== "object") continue;
      if (t.type === "namespace") visit(t.tools);
      else if (typeof t.name === "string") out.push({ name: t.name, type: String(t.type ?? "function"), props: Object.keys(t.parameters?.properties ?? {}) });
      else if (typeof t.type === "string") out.push({ name: t.type, type: t.type, props: [] });
    }
  };
  visit(body?.tools);
  // Clients that announce tools in the conversation (`additional_tools` items) instead of `tools`.
  if (Array.isArray(body?.input)) for (const item of body.input) if (item && typeof item === "object" && !isModelItem(item) && Array.isArray(item.tools)) visit(item.tools);
  return out;
}

/** An item of the model's output, as streamed and as Codex records it. */
type OutputItem =
  | { type: "message"; id: string; role: "assistant"; status: "completed"; content: { type: "output_text"; text: string; annotations: [] }[] }
  | { type: "function_call"; id: string; call_id: string; name: string; arguments: string; status: "completed" }
  | { type: "custom_tool_call"; id: string; call_id: string; name: string; input: string; status: "completed" }
  | { type: "local_shell_call"; id: string; call_id: string; status: "completed"; action: { type: "exec"; command: string[]; working_directory?: string } };

/** How long a command may run before the client hands back a session to poll (the most `exec_command` allows). */
const YIELD_MS = 30_000;

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A command that writes `content` to `path` exactly (any bytes, any final newline). */
function writeCommand(path: string, content: string): string {
  const b64 = Buffer.from(content, "utf8").toString("base64");
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".";
  return `mkdir -p ${shellQuote(dir)} && printf %s ${shellQuote(b64)} | base64 -d > ${shellQuote(path)}`;
}

/** An `apply_patch` patch adding `path` with `content` (which ends with a newline). */
function addFilePatch(path: string, content: string): string {
  const lines = content.slice(0, -1).split("\n");
  return ["*** Begin Patch", `*** Add File: ${path}`, ...lines.map((l) => `+${l}`), "*** End Patch", ""].join("\n");
}

/** Whether an Add File patch reproduces `content` byte for byte. */
function patchable(content: string): boolean {
  return content.length > 0 && content.endsWith("\n") && !content.includes("\r");
}

/** The shell call for `command` through whichever shell tool is offered, or null. */
function shellItem(command: string, tools: OfferedTool[], ids: { id: string; call_id: string }): OutputItem | null {
  const byName = (n: string) => tools.find((t) => t.name === n);
  const exec = byName("exec_command");
  if (exec)
    return {
      type: "function_call",
      ...ids,
      name: "exec_command",
      arguments: JSON.stringify({ cmd: command, ...(exec.props.includes("yield_time_ms") ? { yield_time_ms: YIELD_MS } : {}) }),
      status: "completed",
    };
  const shellCommand = byName("shell_command");
  if (shellCommand) return { type: "function_call", ...ids, name: "shell_command", arguments: JSON.stringify({ command }), status: "completed" };
  const shell = byName("shell");
  if (shell && shell.type === "function") return { type: "function_call", ...ids, name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", command] }), status: "completed" };
  if (byName("local_shell")) return { type: "local_shell_call", ...ids, status: "completed", action: { type: "exec", command: ["bash", "-lc", command] } };
  return null;
}

function messageItem(text: string, id: string): OutputItem {
  return { type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
}

/**
 * A code-mode cell (Codex's freeform `exec` tool: JavaScript calling the
 * nested tools) for one nested call. A command still running when
 * `exec_command` yields is polled to its end inside the cell, and the cell
 * asks not to yield before that.
 */
function codeCell(call: { tool: "exec_command"; cmd: string } | { tool: "apply_patch"; patch: string }): string {
  if (call.tool === "apply_patch") return `const r = await tools.apply_patch(${JSON.stringify(call.patch)});\ntext(r);\n`;
  return [
    `// @exec: ${JSON.stringify({ yield_time_ms: CELL_YIELD_MS })}`,
    `let r = await tools.exec_command({ cmd: ${JSON.stringify(call.cmd)}, yield_time_ms: ${YIELD_MS} });`,
    'let output = r.output ?? "";',
    "while (r.session_id !== undefined && r.exit_code === undefined) {",
    `  r = await tools.write_stdin({ session_id: r.session_id, chars: "", yield_time_ms: ${YIELD_MS} });`,
    '  output += r.output ?? "";',
    "}",
    "text(output);",
    "if (r.exit_code !== undefined) text(`exit code ${r.exit_code}`);",
    "",
  ].join("\n");
}

/** How long a code-mode cell may run before it yields (the harness's wall clock ends it first). */
const CELL_YIELD_MS = 24 * 3600_000;

/** The output item that plays `step` with the offered tools. */
export function itemFor(step: ScriptStep, tools: OfferedTool[], turn: number): OutputItem {
  const ids = { id: `fc_scripted_${turn}`, call_id: `call_scripted_${turn}` };
  const msgId = `msg_scripted_${turn}`;
  const custom = (name: string, input: string): OutputItem => ({ type: "custom_tool_call", ...ids, id: `ctc_scripted_${turn}`, name, input, status: "completed" });
  // Code mode: the only way to a shell or a patch is a JavaScript cell of the `exec` tool.
  const codeMode = tools.some((t) => t.name === "exec" && t.type === "custom") && !tools.some((t) => ["exec_command", "shell_command", "shell", "local_shell", "apply_patch"].includes(t.name));
  const shell = (command: string, what: string): OutputItem =>
    codeMode ? custom("exec", codeCell({ tool: "exec_command", cmd: command })) : (shellItem(command, tools, ids) ?? messageItem(`I would ${what}, but no shell tool was offered.`, msgId));
  switch (step.kind) {
    case "say":
    case "done":
      return messageItem(step.text, msgId);
    case "fail":
      return messageItem(step.body, msgId);
    case "write": {
      if (patchable(step.content)) {
        const text = addFilePatch(step.path, step.content);
        if (codeMode) return custom("exec", codeCell({ tool: "apply_patch", patch: text }));
        const patch = tools.find((t) => t.name === "apply_patch");
        if (patch?.type === "custom") return custom("apply_patch", text);
        if (patch?.type === "function")
          return { type: "function_call", ...ids, name: "apply_patch", arguments: JSON.stringify({ [patch.props.includes("patch") ? "patch" : "input"]: text }), status: "completed" };
      }
      return shell(writeCommand(step.path, step.content), `write ${step.path}`);
    }
    case "bash":
      return shell(step.command, `run \`${step.command}\``);
    case "read":
      return shell(`cat ${shellQuote(step.path)}`, `read ${step.path}`);
  }
}

/** Rough token count of a value (4 characters a token). */
function tokens(value: unknown): number {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Plausible usage: instructions, tools and the whole input are read; everything up to the model's last item counts as a cache hit. */
function usageFor(body: any, item: OutputItem) {
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  const fixed = tokens(body?.instructions ?? "") + (Array.isArray(body?.tools) ? tokens(body.tools) : 0);
  const total = fixed + tokens(input);
  let lastModel = -1;
  input.forEach((it, i) => {
    if (isModelItem(it)) lastModel = i;
  });
  const cached = lastModel < 0 ? 0 : Math.min(total - 1, fixed + tokens(input.slice(0, lastModel + 1)));
  const output = tokens(item);
  return {
    input_tokens: total,
    input_tokens_details: { cached_tokens: Math.max(0, cached) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: total + output,
  };
}

function event(res: ServerResponse, type: string, data: Record<string, unknown>, seq: { n: number }): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq.n++, ...data })}\n\n`);
}

/** Pieces of a streamed string. */
function pieces(s: string, n = 3): string[] {
  if (!s) return [];
  const size = Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function respond(step: ScriptStep, ctx: ProtocolContext): void {
  const { body, res, script } = ctx;
  const turn = turnOf(body);
  const model = typeof body?.model === "string" && body.model ? body.model : script.model;
  const tools = offeredTools(body);
  const session = runningSession(body);
  const item: OutputItem =
    session !== null && tools.some((t) => t.name === "write_stdin")
      ? {
          type: "function_call",
          id: `fc_${POLL_PREFIX}${(body.input as unknown[]).length}`,
          call_id: `${POLL_PREFIX}${(body.input as unknown[]).length}`,
          name: "write_stdin",
          arguments: JSON.stringify({ session_id: session, chars: "", yield_time_ms: YIELD_MS }),
          status: "completed",
        }
      : itemFor(step, tools, turn);
  const usage = usageFor(body, item);
  const created_at = Math.floor(Date.now() / 1000);
  const response = { id: `resp_scripted_${turn}`, object: "response", created_at, model, status: "in_progress", output: [] as OutputItem[], usage: null as unknown };

  if (body?.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...response, status: "completed", output: [item], usage }));
    return;
  }

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const seq = { n: 0 };
  event(res, "response.created", { response }, seq);
  event(res, "response.in_progress", { response }, seq);
  const at = { output_index: 0 };
  switch (item.type) {
    case "message": {
      const text = item.content[0].text;
      event(res, "response.output_item.added", { ...at, item: { ...item, status: "in_progress", content: [] } }, seq);
      const part = { type: "output_text", text: "", annotations: [] };
      event(res, "response.content_part.added", { ...at, item_id: item.id, content_index: 0, part }, seq);
      for (const delta of pieces(text)) event(res, "response.output_text.delta", { ...at, item_id: item.id, content_index: 0, delta }, seq);
      event(res, "response.output_text.done", { ...at, item_id: item.id, content_index: 0, text }, seq);
      event(res, "response.content_part.done", { ...at, item_id: item.id, content_index: 0, part: { ...part, text } }, seq);
      break;
    }
    case "function_call":
      event(res, "response.output_item.added", { ...at, item: { ...item, status: "in_progress", arguments: "" } }, seq);
      for (const delta of pieces(item.arguments)) event(res, "response.function_call_arguments.delta", { ...at, item_id: item.id, delta }, seq);
      event(res, "response.function_call_arguments.done", { ...at, item_id: item.id, arguments: item.arguments }, seq);
      break;
    case "custom_tool_call":
      event(res, "response.output_item.added", { ...at, item: { ...item, status: "in_progress", input: "" } }, seq);
      for (const delta of pieces(item.input)) event(res, "response.custom_tool_call_input.delta", { ...at, item_id: item.id, delta }, seq);
      event(res, "response.custom_tool_call_input.done", { ...at, item_id: item.id, input: item.input }, seq);
      break;
    case "local_shell_call":
      event(res, "response.output_item.added", { ...at, item: { ...item, status: "in_progress" } }, seq);
      break;
  }
  event(res, "response.output_item.done", { ...at, item }, seq);
  event(res, "response.completed", { response: { ...response, status: "completed", output: [item], usage } }, seq);
  res.end();
}

export const openaiResponses: ModelProtocol = {
  id: "openai-responses",
  matches: (method, path) => method === "POST" && /\/responses\/?$/.test(path),
  turnOf,
  respond,
};
