/**
 * The claude-code lane end to end: the real CLI (outside any sandbox: each
 * mount's sandbox prefix in argv is mapped back to its host path) against
 * the scripted model server speaking the Anthropic Messages API.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeCodeLane } from "../../../scripts/agent/lanes/claude-code.ts";
import type { LaneSetup } from "../../../scripts/agent/lanes/lane.ts";
import { anthropicMessages, renderStep } from "../../../scripts/agent/model-server/anthropic-messages.ts";
import { startScriptedModel } from "../../../scripts/agent/model-server/server.ts";
import { Script, type ScriptStep } from "../../../scripts/agent/script.ts";
import type { RawLine } from "../../../scripts/agent/trajectory.ts";

const version = claudeCodeLane.version();
const PROMPT = "You are working on ticket T-1 in the workspace. Write the file and stop.";

/** Stand-in for an egress proxy: records whatever the CLI tries to reach outside 127.0.0.1, refuses it. */
let proxy: Server;
let proxyUrl = "";
const proxied: string[] = [];
beforeAll(async () => {
  proxy = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  proxy.on("connect", (req, socket) => {
    proxied.push(`CONNECT ${req.url}`);
    socket.on("error", () => {});
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

interface Run {
  lines: RawLine[];
  code: number | null;
  workspace: string;
  calls: { protocol: string; path: string; turn: number; status: number }[];
  seconds: number;
  setup: LaneSetup;
}

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** Runs the lane's command on the host against a scripted model playing `steps` (paths may use `$WS`). */
async function runLane(steps: ScriptStep[], extraEnv: Record<string, string> = {}, timeoutMs = 60_000): Promise<Run> {
  const workspace = mkdtempSync(join(tmpdir(), "wb-cc-ws-"));
  const home = mkdtempSync(join(tmpdir(), "wb-cc-home-"));
  temps.push(workspace, home);
  const script = Script.parse({ name: "claude-code-test", model: "scripted-gold", steps: JSON.parse(JSON.stringify(steps).replaceAll("$WS", workspace)) });
  const server = await startScriptedModel(script, { protocols: [anthropicMessages] });
  const setup: LaneSetup = { prompt: PROMPT, model: script.model, modelBaseUrl: server.url, apiKey: "sk-ant-scripted-000000000000", workspace, home, hostHome: home, timeLimitS: 60 };
  try {
    const cmd = claudeCodeLane.prepare(setup);
    const mounts = claudeCodeLane.mounts();
    const argv = cmd.argv.map((a) => {
      const m = mounts.find((mt) => a === mt.sandbox || a.startsWith(`${mt.sandbox}/`));
      return m ? m.host + a.slice(m.sandbox.length) : a;
    });
    // A clean environment: nothing of the host's (no real provider key) but PATH.
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...cmd.env, HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, NO_PROXY: "127.0.0.1,localhost", ...extraEnv };
    const t0 = Date.now();
    const child = spawn(argv[0], argv.slice(1), { cwd: workspace, env, stdio: ["ignore", "pipe", "pipe"] });
    const lines: RawLine[] = [];
    const read = (stream: NodeJS.ReadableStream, name: RawLine["stream"]) =>
      new Promise<void>((resolve) => {
        const rl = createInterface({ input: stream });
        rl.on("line", (text) => lines.push({ t: (Date.now() - t0) / 1000, stream: name, text }));
        rl.on("close", resolve);
      });
    const done = Promise.all([read(child.stdout!, "stdout"), read(child.stderr!, "stderr")]);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    clearTimeout(timer);
    await done;
    return { lines, code, workspace, calls: [...server.calls], seconds: (Date.now() - t0) / 1000, setup };
  } finally {
    await server.stop();
  }
}

const overloaded = JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });

describe.skipIf(!version.ok)("claude-code lane (real CLI)", () => {
  it("reports its version", () => {
    expect(version).toMatchObject({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const mounts = claudeCodeLane.mounts();
    expect(mounts.length).toBe(1);
    expect(mounts[0].sandbox.startsWith("/opt/agents/claude-code/")).toBe(true);
    expect(existsSync(mounts[0].host)).toBe(true);
  });

  it("writes a file, runs a command and finishes", { timeout: 90_000 }, async () => {
    const run = await runLane([
      { kind: "write", path: "$WS/repo/hello.txt", content: "hello from the scripted model\n" },
      { kind: "bash", command: "touch marker && echo made-marker" },
      { kind: "done", text: "The ticket is done." },
    ]);
    const stderr = run.lines
      .filter((l) => l.stream === "stderr")
      .map((l) => l.text)
      .join("\n");
    expect(run.code, stderr).toBe(0);
    expect(readFileSync(join(run.workspace, "repo/hello.txt"), "utf8")).toBe("hello from the scripted model\n");
    expect(existsSync(join(run.workspace, "marker"))).toBe(true);

    // One request per turn, in order; no side request played a step.
    expect(run.calls.filter((c) => c.status === 200 && c.path.endsWith("/v1/messages")).map((c) => c.turn)).toEqual([0, 1, 2]);

    const events = claudeCodeLane.normalize(run.lines, run.setup);
    expect(events.map((e) => e.kind)).toEqual(["system", "user", "tool_call", "tool_call", "message"]);
    const [system, user, write, bash, message] = events;
    expect(system).toMatchObject({ kind: "system", model: "scripted-gold", tools: expect.arrayContaining(["Write", "Bash", "Read"]) });
    expect(user).toMatchObject({ kind: "user", text: PROMPT });
    expect(write).toMatchObject({
      kind: "tool_call",
      tool: "Write",
      input: { file_path: join(run.workspace, "repo/hello.txt"), content: "hello from the scripted model\n" },
      result: { ok: true, exit_code: null },
    });
    expect(bash).toMatchObject({ kind: "tool_call", tool: "Bash", input: { command: "touch marker && echo made-marker" }, result: { ok: true, output: "made-marker", exit_code: 0 } });
    expect(message).toMatchObject({ kind: "message", text: "The ticket is done." });
    const calls = events.filter((e) => e.kind === "tool_call");
    expect(calls).toEqual(expect.arrayContaining([write, bash]));
    expect(calls.filter((e) => !(e.t_end! >= e.t))).toEqual([]);

    const usage = claudeCodeLane.usage(run.lines);
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(usage.cached_input_tokens).toBeGreaterThan(0);
    expect(usage.cached_input_tokens).toBeLessThan(usage.input_tokens);
    expect(claudeCodeLane.providerFailure(run.lines)).toBeNull();
    // Nothing went anywhere but the scripted model.
    expect(proxied).toEqual([]);
  });

  it("reports an overloaded provider (529), with retries bounded", { timeout: 90_000 }, async () => {
    const run = await runLane([{ kind: "fail", status: 529, body: overloaded }], { CLAUDE_CODE_MAX_RETRIES: "1" });
    expect(run.code).not.toBe(0);
    // The first try and one retry.
    expect(run.calls.map((c) => c.status)).toEqual([529, 529]);
    expect(claudeCodeLane.providerFailure(run.lines)).toMatchObject({ kind: "provider_error", message: expect.stringMatching(/529|overloaded/i) });
    const events = claudeCodeLane.normalize(run.lines, run.setup);
    expect(events.map((e) => e.kind)).toEqual(["system", "user", "error"]);
    expect(claudeCodeLane.usage(run.lines)).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(run.seconds).toBeLessThan(30);
  });

  it("reports a usage limit with its reset time", { timeout: 90_000 }, async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    const body = JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: `Claude AI usage limit reached|${reset}` } });
    const run = await runLane([{ kind: "fail", status: 429, body }], { CLAUDE_CODE_MAX_RETRIES: "0" });
    expect(run.code).not.toBe(0);
    expect(claudeCodeLane.providerFailure(run.lines)).toEqual({ kind: "usage_limit", message: expect.stringContaining("usage limit reached"), resetEpoch: reset });
  });

  it("reports a provider rate limit (429 with no reset) as a usage limit", { timeout: 90_000 }, async () => {
    const body = JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "This request would exceed your account's rate limit. Please try again later." } });
    const run = await runLane([{ kind: "fail", status: 429, body }], { CLAUDE_CODE_MAX_RETRIES: "0" });
    const failure = claudeCodeLane.providerFailure(run.lines);
    expect(failure).toMatchObject({ kind: "usage_limit" });
    expect(failure!.resetEpoch).toBeUndefined();
  });

  it("reports a rejected key as a provider error", { timeout: 90_000 }, async () => {
    const body = JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
    const run = await runLane([{ kind: "fail", status: 401, body }], { CLAUDE_CODE_MAX_RETRIES: "0" });
    expect(claudeCodeLane.providerFailure(run.lines)).toMatchObject({ kind: "provider_error" });
  });
});

// ---------------------------------------------------------------------------
// Without the CLI: the parsers on hand-written stream-json.

const L = (t: number, ev: unknown, stream: RawLine["stream"] = "stdout"): RawLine => ({ t, stream, text: typeof ev === "string" ? ev : JSON.stringify(ev) });
const init = { type: "system", subtype: "init", model: "m", tools: ["Bash"] };
const ok = {
  type: "result",
  subtype: "success",
  is_error: false,
  result: "done",
  usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 20, output_tokens: 7 },
  modelUsage: {},
  total_cost_usd: 0.5,
};

describe("claude-code lane parsers", () => {
  it("never takes a 429 or a limit in tool output or agent text for a provider failure", () => {
    const lines = [
      L(0, init),
      L(1, {
        type: "assistant",
        message: {
          id: "a",
          content: [
            { type: "text", text: "The vendor said 429 Too Many Requests; usage limit reached, API Error: 500" },
            { type: "tool_use", id: "t1", name: "Bash", input: { command: "curl" } },
          ],
        },
      }),
      L(2, {
        type: "user",
        message: {
          content: [{ type: "tool_result", tool_use_id: "t1", is_error: true, content: "Exit code 22\nHTTP/1.1 429 Too Many Requests\nClaude AI usage limit reached|1796121000 overloaded_error" }],
        },
      }),
      L(3, ok),
    ];
    expect(claudeCodeLane.providerFailure(lines)).toBeNull();
    const events = claudeCodeLane.normalize(lines, { model: "m", prompt: "p" });
    expect(events.map((e) => e.kind)).toEqual(["system", "user", "message", "tool_call"]);
    expect(events[3]).toMatchObject({ result: { ok: false, exit_code: 22 }, t: 1, t_end: 2 });
  });

  it("reads limits from non-JSON stdout and rejected rate-limit events", () => {
    expect(claudeCodeLane.providerFailure([L(0, "Claude AI usage limit reached|1796121000")])).toEqual({
      kind: "usage_limit",
      message: "Claude AI usage limit reached|1796121000",
      resetEpoch: 1796121000,
    });
    const rejected = L(1, { type: "rate_limit_event", rate_limit_info: { status: "rejected", resetsAt: 1796121000, rateLimitType: "five_hour" } });
    expect(claudeCodeLane.providerFailure([L(0, init), rejected, L(2, { ...ok, is_error: true, result: "You've hit your limit · resets 3pm" })])).toMatchObject({
      kind: "usage_limit",
      resetEpoch: 1796121000,
    });
    expect(claudeCodeLane.providerFailure([L(0, init), rejected])).toMatchObject({ kind: "usage_limit", resetEpoch: 1796121000 });
    // Waited out (or fell back): the run finished, no failure.
    expect(claudeCodeLane.providerFailure([L(0, init), rejected, L(2, ok)])).toBeNull();
    // An allowed event is only information.
    expect(claudeCodeLane.providerFailure([L(0, init), L(1, { type: "rate_limit_event", rate_limit_info: { status: "allowed_warning" } }), L(2, ok)])).toBeNull();
    // Stderr is not read.
    expect(claudeCodeLane.providerFailure([L(0, "usage limit reached", "stderr")])).toBeNull();
  });

  it("tells agent failures from provider failures in terminal results", () => {
    expect(claudeCodeLane.providerFailure([L(0, { type: "result", subtype: "error_max_turns", is_error: true })])).toBeNull();
    expect(
      claudeCodeLane.providerFailure([
        L(0, { type: "result", subtype: "success", is_error: true, api_error_status: 400, api_error_type: "invalid_request_error", result: "API Error: 400 prompt is too long" }),
      ]),
    ).toBeNull();
    expect(
      claudeCodeLane.providerFailure([
        L(0, { type: "result", subtype: "success", is_error: true, api_error_status: 500, api_error_type: "api_error", result: "API Error: 500 Internal server error" }),
      ]),
    ).toMatchObject({ kind: "provider_error" });
    expect(claudeCodeLane.providerFailure([L(0, { type: "result", is_error: true, result: "Failed to authenticate. API Error: 401" })])).toMatchObject({ kind: "provider_error" });
  });

  it("normalises thinking, caps tool output, and keeps an unanswered call open", () => {
    const long = "x".repeat(10_000);
    const events = claudeCodeLane.normalize(
      [
        L(0.5, init),
        L(1, { type: "assistant", message: { id: "a", content: [{ type: "thinking", thinking: "hmm" }] } }),
        L(1, { type: "assistant", message: { id: "a", content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/x" } }] } }),
        L(2, { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: long }] }] } }),
        L(3, { type: "assistant", message: { id: "b", content: [{ type: "tool_use", id: "t2", name: "Bash", input: { command: "sleep 99" } }] } }),
      ],
      { model: "m", prompt: "p" },
    );
    expect(events.map((e) => e.kind)).toEqual(["system", "user", "reasoning", "tool_call", "tool_call"]);
    const read = events[3] as Extract<(typeof events)[number], { kind: "tool_call" }>;
    expect(read.result!.ok).toBe(true);
    expect(read.result!.output.length).toBeLessThan(4_100);
    expect(read.result!.output.startsWith("x".repeat(4_000))).toBe(true);
    expect(events[4]).toMatchObject({ result: null, t_end: null });
  });

  it("sums usage from the result (cache reads inside input), or from messages when there is none", () => {
    expect(claudeCodeLane.usage([L(0, ok)])).toEqual({ input_tokens: 35, cached_input_tokens: 20, output_tokens: 7, cost_usd: 0.5 });
    const perModel = {
      ...ok,
      modelUsage: {
        big: { inputTokens: 10, outputTokens: 3, cacheReadInputTokens: 4, cacheCreationInputTokens: 1 },
        small: { inputTokens: 2, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      },
    };
    expect(claudeCodeLane.usage([L(0, perModel)])).toEqual({ input_tokens: 17, cached_input_tokens: 4, output_tokens: 4, cost_usd: 0.5 });
    const msg = (id: string) => L(1, { type: "assistant", message: { id, usage: { input_tokens: 3, cache_read_input_tokens: 2, output_tokens: 1 }, content: [] } });
    expect(claudeCodeLane.usage([msg("a"), msg("a"), msg("b")])).toEqual({ input_tokens: 10, cached_input_tokens: 4, output_tokens: 2, cost_usd: null });
  });
});

describe("anthropic-messages adapter", () => {
  const tools = [{ name: "Write" }, { name: "Bash" }, { name: "Read" }];
  it("maps lane-neutral steps onto the offered tools", () => {
    expect(renderStep({ kind: "write", path: "/w/a", content: "c" }, { tools }, 0).content[0]).toMatchObject({ type: "tool_use", name: "Write", input: { file_path: "/w/a", content: "c" } });
    expect(renderStep({ kind: "read", path: "/w/a" }, { tools }, 1).content[0]).toMatchObject({ name: "Read", input: { file_path: "/w/a" } });
    expect(renderStep({ kind: "bash", command: "ls" }, { tools }, 2)).toMatchObject({ stopReason: "tool_use", content: [{ name: "Bash", input: { command: "ls" } }] });
    expect(renderStep({ kind: "done", text: "ok" }, { tools }, 3)).toEqual({ stopReason: "end_turn", content: [{ type: "text", text: "ok" }] });
    // No Write tool: the file goes through the shell.
    expect(renderStep({ kind: "write", path: "/w/a", content: "it's" }, { tools: [{ name: "Bash" }] }, 0).content[0]).toMatchObject({
      name: "Bash",
      input: { command: expect.stringContaining("printf '%s' 'it'\\''s' > '/w/a'") },
    });
  });

  it("answers side requests (no tools, token counting) without playing a turn", async () => {
    expect(anthropicMessages.turnOf({ max_tokens: 10, tools, messages: [{ role: "user" }, { role: "assistant" }, { role: "user" }] })).toBe(1);
    expect(anthropicMessages.turnOf({ max_tokens: 10, messages: [{ role: "user" }] })).toBe(Number.MAX_SAFE_INTEGER);
    expect(anthropicMessages.matches("POST", "/proxy/v1/messages")).toBe(true);
    expect(anthropicMessages.matches("GET", "/v1/messages")).toBe(false);

    const script = Script.parse({
      name: "s",
      steps: [
        { kind: "fail", status: 529, body: overloaded },
        { kind: "done", text: "bye" },
      ],
    });
    const server = await startScriptedModel(script, { protocols: [anthropicMessages] });
    try {
      const post = (path: string, body: unknown) => fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      // A title request while the agent's first turn is meant to fail: a short text, not the failure.
      const title = await post("/v1/messages", { model: "m", max_tokens: 50, messages: [{ role: "user", content: "title?" }] });
      expect(title.status).toBe(200);
      expect(((await title.json()) as any).content[0].type).toBe("text");
      const count = await post("/v1/messages/count_tokens", { model: "m", tools, messages: [{ role: "user", content: "hi" }] });
      expect(await count.json()).toEqual({ input_tokens: expect.any(Number) });
      const turn0 = await post("/v1/messages", { model: "m", max_tokens: 50, tools, messages: [{ role: "user", content: "go" }] });
      expect(turn0.status).toBe(529);
      // Plain JSON when not streamed.
      const plain = (await (
        await post("/v1/messages", {
          model: "m",
          max_tokens: 50,
          tools,
          messages: [
            { role: "user", content: "go" },
            { role: "assistant", content: "x" },
            { role: "user", content: "y" },
          ],
        })
      ).json()) as any;
      expect(plain).toMatchObject({
        type: "message",
        role: "assistant",
        stop_reason: "end_turn",
        content: [{ type: "text", text: "bye" }],
        usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
      });
      // Streamed, with usage and a stop reason.
      const streamed = await post("/v1/messages?beta=true", {
        model: "m",
        max_tokens: 50,
        stream: true,
        tools,
        messages: [
          { role: "user", content: "go" },
          { role: "assistant", content: "x" },
          { role: "user", content: "y" },
        ],
      });
      const sse = await streamed.text();
      const types = [...sse.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
      expect(types).toEqual(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
      expect(sse).toContain('"stop_reason":"end_turn"');
      expect(sse).toMatch(/"cache_read_input_tokens":[1-9]/);
    } finally {
      await server.stop();
    }
  });
});
