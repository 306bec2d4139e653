/**
 * @module openai-chat
 * OpenAI Chat Completions (`POST .../chat/completions`) for the scripted
 * model server: OpenCode (through `@ai-sdk/openai-compatible`) and the
 * built-in direct loop speak it. A lane-neutral step becomes a call of one of
 * the tools the client offered, chosen from a table by tool name, with its
 * argument names read from the tool's JSON schema; `say` and `done` (when no
 * `done` tool is offered) become assistant text with `finish_reason: "stop"`.
 * Answers are streamed as `chat.completion.chunk` events when the request
 * says `stream: true`, plain `chat.completion` JSON otherwise.
 */
import type { ServerResponse } from "node:http";
import type { ScriptStep } from "../script.ts";
import type { ModelProtocol, ProtocolContext } from "./protocol.ts";

/** One tool as offered in `body.tools`. */
interface OfferedTool {
  name: string;
  /** Property names of its argument schema. */
  props: string[];
}

type ToolStep = Extract<ScriptStep, { kind: "write" | "bash" | "read" | "done" }>;

/** How one lane-neutral step is played through one tool. */
interface ToolMapping {
  /** Tool names that take this step, best first. */
  names: string[];
  /** Argument roles: each role is filled into the first of its candidate property names the schema declares. */
  args: { candidates: string[]; value: (step: any) => string; optional?: boolean }[];
}

const PATH_KEYS = ["filePath", "file_path", "path", "filename"];

/** The table: step kind -> tools that can play it. */
const MAPPINGS: Record<ToolStep["kind"], ToolMapping[]> = {
  write: [
    {
      names: ["write", "write_file", "Write", "create_file"],
      args: [
        { candidates: PATH_KEYS, value: (s) => s.path },
        { candidates: ["content", "contents", "text", "file_text"], value: (s) => s.content },
      ],
    },
  ],
  bash: [
    {
      names: ["bash", "shell", "Bash", "run_command", "exec"],
      args: [
        { candidates: ["command", "cmd"], value: (s) => s.command },
        { candidates: ["description"], value: (s) => describeCommand(s.command), optional: true },
      ],
    },
  ],
  read: [
    {
      names: ["read", "read_file", "Read", "view"],
      args: [{ candidates: PATH_KEYS, value: (s) => s.path }],
    },
  ],
  done: [
    {
      names: ["done", "finish", "submit"],
      args: [{ candidates: ["summary", "text", "message", "result"], value: (s) => s.text }],
    },
  ],
};

function describeCommand(command: string): string {
  const first = command.split("\n")[0].trim();
  return `Run ${first.length > 60 ? first.slice(0, 57) + "..." : first}`;
}

/** The tools a request offers (Chat Completions `tools[].function`, or the legacy `functions`). */
export function offeredTools(body: any): OfferedTool[] {
  const raw: any[] = Array.isArray(body?.tools) ? body.tools.map((t: any) => t?.function ?? t) : Array.isArray(body?.functions) ? body.functions : [];
  return raw.filter((f) => f && typeof f.name === "string").map((f) => ({ name: f.name as string, props: Object.keys(f.parameters?.properties ?? {}) }));
}

/** A tool call for `step` among the offered tools, or null when none of them plays it. */
export function toolCallFor(step: ScriptStep, tools: OfferedTool[]): { name: string; arguments: Record<string, string> } | null {
  if (step.kind !== "write" && step.kind !== "bash" && step.kind !== "read" && step.kind !== "done") return null;
  for (const mapping of MAPPINGS[step.kind]) {
    for (const name of mapping.names) {
      const tool = tools.find((t) => t.name === name);
      if (!tool) continue;
      const args: Record<string, string> = {};
      for (const role of mapping.args) {
        // A schema-less tool gets the first candidate name of every required role.
        const key = role.candidates.find((c) => tool.props.includes(c)) ?? (tool.props.length === 0 && !role.optional ? role.candidates[0] : undefined);
        if (key) args[key] = role.value(step);
      }
      return { name, arguments: args };
    }
  }
  return null;
}

/** Text for a step played without a tool. */
function textFor(step: ScriptStep): string {
  switch (step.kind) {
    case "say":
    case "done":
      return step.text;
    case "write":
      return `I would write ${step.path}, but no tool to write files was offered.`;
    case "bash":
      return `I would run \`${step.command}\`, but no shell tool was offered.`;
    case "read":
      return `I would read ${step.path}, but no tool to read files was offered.`;
    case "fail":
      return step.body;
  }
}

/** Rough token count of a value (4 characters a token). */
function tokens(value: unknown): number {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Plausible usage: the whole prompt is input; the prefix up to the last assistant turn counts as a cache hit. */
function usageFor(body: any, output: unknown) {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const prompt = tokens(messages) + (Array.isArray(body?.tools) ? tokens(body.tools) : 0);
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    if (m?.role === "assistant") lastAssistant = i;
  });
  const cached = lastAssistant < 0 ? 0 : Math.min(prompt - 1, tokens(messages.slice(0, lastAssistant + 1)) + (Array.isArray(body?.tools) ? tokens(body.tools) : 0));
  const completion = tokens(output);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: Math.max(0, cached) },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function turnOf(body: any): number {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  return messages.filter((m) => m?.role === "assistant").length;
}

function sse(res: ServerResponse, data: unknown): void {
  res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
}

function respond(step: ScriptStep, ctx: ProtocolContext): void {
  const { body, res, script } = ctx;
  const turn = turnOf(body);
  const model = typeof body?.model === "string" && body.model ? body.model : script.model;
  const id = `chatcmpl-scripted-${turn}`;
  const created = Math.floor(Date.now() / 1000);
  const call = toolCallFor(step, offeredTools(body));
  const toolCall = call ? { id: `call_${turn}_0`, type: "function" as const, function: { name: call.name, arguments: JSON.stringify(call.arguments) } } : null;
  const content = toolCall ? null : textFor(step);
  const finish = toolCall ? "tool_calls" : "stop";
  const usage = usageFor(body, toolCall ?? content);

  if (body?.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message: { role: "assistant", content, ...(toolCall ? { tool_calls: [toolCall] } : {}) }, finish_reason: finish, logprobs: null }],
        usage,
      }),
    );
    return;
  }

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    sse(res, { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason, logprobs: null }] });
  chunk({ role: "assistant", content: "" });
  if (toolCall) {
    chunk({ tool_calls: [{ index: 0, id: toolCall.id, type: "function", function: { name: toolCall.function.name, arguments: "" } }] });
    // Arguments in a few pieces, as providers stream them.
    const args = toolCall.function.arguments;
    const size = Math.max(1, Math.ceil(args.length / 3));
    for (let i = 0; i < args.length; i += size) chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + size) } }] });
  } else {
    const text = content ?? "";
    for (const piece of text.match(/[\s\S]{1,40}/g) ?? []) chunk({ content: piece });
  }
  chunk({}, finish);
  if (body?.stream_options?.include_usage) sse(res, { id, object: "chat.completion.chunk", created, model, choices: [], usage });
  sse(res, "[DONE]");
  res.end();
}

export const openaiChat: ModelProtocol = {
  id: "openai-chat",
  matches: (method, path) => method === "POST" && /\/chat\/completions\/?$/.test(path),
  turnOf,
  respond,
};
