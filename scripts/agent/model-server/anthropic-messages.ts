/**
 * @module anthropic-messages
 * The Anthropic Messages API as the scripted model server speaks it (Claude
 * Code's lane): `POST /v1/messages`, streamed as server-sent events when the
 * request asks for it, plain JSON otherwise.
 *
 * Side requests. Besides the agent loop, Claude Code sends requests that are
 * not turns of the conversation: title or summary generation, a one-token
 * "quota" probe on the small model, and token counting
 * (`POST /v1/messages/count_tokens`). None of them offers tools, while every
 * request of the agent loop does. The server is stateless (the step to play
 * is worked out from the conversation sent), so a side request consumes
 * nothing whatever it is answered; what must not happen is that it plays the
 * wrong step, e.g. a `fail` meant for the agent's first turn because a title
 * request carries no assistant message either. So {@link turnOf} gives a
 * request without tools an index past the end of every script, which the
 * server clamps to the last step (the final `done`, or the failure a
 * provider that is down for good keeps returning), and {@link respond}
 * answers it with a short text that never contains a tool call.
 */
import type { ScriptStep } from "../script.ts";
import type { ModelProtocol, ProtocolContext } from "./protocol.ts";

const MESSAGES = "/v1/messages";
const COUNT_TOKENS = "/v1/messages/count_tokens";

/** Text a side request (no tools offered) is answered with. */
const SIDE_ANSWER = "Scripted session";

/** Whether the request offers tools (every agent-loop request does). */
function offersTools(body: any): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

function toolNames(body: any): string[] {
  return offersTools(body) ? body.tools.map((t: any) => String(t?.name ?? "")) : [];
}

/** The offered tool called `name` (exact, else case-insensitive), if any. */
function pickTool(offered: string[], name: string): string | undefined {
  return offered.find((n) => n === name) ?? offered.find((n) => n.toLowerCase() === name.toLowerCase());
}

function assistantCount(body: any): number {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  return messages.filter((m: any) => m?.role === "assistant").length;
}

/** Single-quotes a string for a POSIX shell. */
function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** The content of the answer to `step`, mapped onto the tools the request offers. */
export function renderStep(step: ScriptStep, body: any, turn: number): { content: Block[]; stopReason: "end_turn" | "tool_use" } {
  const text = (t: string) => ({ content: [{ type: "text" as const, text: t }], stopReason: "end_turn" as const });
  if (!offersTools(body)) return text(SIDE_ANSWER);
  const offered = toolNames(body);
  const call = (name: string, input: Record<string, unknown>) => ({
    content: [{ type: "tool_use" as const, id: `toolu_wirebench_${String(turn).padStart(3, "0")}`, name, input }],
    stopReason: "tool_use" as const,
  });
  const bash = pickTool(offered, "Bash");
  switch (step.kind) {
    case "say":
    case "done":
      return text(step.text);
    case "write": {
      const write = pickTool(offered, "Write");
      if (write) return call(write, { file_path: step.path, content: step.content });
      // No Write tool (e.g. `--tools Bash`): the same file through the shell.
      if (bash) return call(bash, { command: `mkdir -p "$(dirname ${shq(step.path)})" && printf '%s' ${shq(step.content)} > ${shq(step.path)}` });
      return text(`(scripted: no tool to write ${step.path} with)`);
    }
    case "bash":
      if (bash) return call(bash, { command: step.command });
      return text(`(scripted: no tool to run ${step.command} with)`);
    case "read": {
      const read = pickTool(offered, "Read");
      if (read) return call(read, { file_path: step.path });
      if (bash) return call(bash, { command: `cat ${shq(step.path)}` });
      return text(`(scripted: no tool to read ${step.path} with)`);
    }
    case "fail":
      // The server answers `fail` steps itself; never reached.
      return text(`(scripted failure ${step.status})`);
  }
}

/** Rough token count of a JSON value, as a provider would bill it (4 characters a token). */
function tokens(value: unknown): number {
  if (value === undefined) return 0;
  return Math.ceil(JSON.stringify(value).length / 4);
}

/**
 * Plausible usage for a request: what Claude Code marks cacheable (system
 * prompt and tools) is written to the cache on the first turn and read from
 * it on later ones; the rest is plain input.
 */
function usageOf(body: any, content: Block[], turn: number) {
  const all = tokens(body);
  const cacheable = offersTools(body) ? Math.min(all, tokens(body.system) + tokens(body.tools)) : 0;
  return {
    input_tokens: Math.max(1, all - cacheable),
    cache_creation_input_tokens: turn === 0 ? cacheable : 0,
    cache_read_input_tokens: turn === 0 ? 0 : cacheable,
    output_tokens: Math.max(1, tokens(content)),
  };
}

function sse(res: ProtocolContext["res"], event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export const anthropicMessages: ModelProtocol = {
  id: "anthropic-messages",

  matches(method, path) {
    return method === "POST" && (path.endsWith(MESSAGES) || path.endsWith(COUNT_TOKENS));
  },

  turnOf(body) {
    // Side requests (no tools; token counting sends no max_tokens) are not turns: see the module note.
    if (!offersTools(body) || body?.max_tokens === undefined) return Number.MAX_SAFE_INTEGER;
    return assistantCount(body);
  },

  respond(step, { script, body, req, res }) {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path.endsWith(COUNT_TOKENS)) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: tokens(body) }));
      return;
    }
    const turn = assistantCount(body);
    const { content, stopReason } = renderStep(step, body, turn);
    const usage = usageOf(body, content, turn);
    const id = `msg_wirebench_${String(turn).padStart(3, "0")}`;
    const model = script.model;
    const headers = { "request-id": `req_wirebench_${turn}`, "anthropic-organization-id": "wirebench-scripted" };

    if (!body?.stream) {
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify({ id, type: "message", role: "assistant", model, content, stop_reason: stopReason, stop_sequence: null, usage }));
      return;
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", ...headers });
    sse(res, "message_start", {
      type: "message_start",
      message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    });
    content.forEach((block, index) => {
      if (block.type === "text") {
        sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
        sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
      } else {
        sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
        sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
      }
      sse(res, "content_block_stop", { type: "content_block_stop", index });
    });
    sse(res, "message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
    sse(res, "message_stop", { type: "message_stop" });
    res.end();
  },
};
