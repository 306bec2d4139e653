/**
 * The opencode lane end to end: the real CLI (outside any sandbox: the lane's
 * sandbox paths in argv are mapped back to their host folders) against the
 * scripted model server's `openai-chat` protocol, with a fresh home and the
 * npm registry and any proxy pointed at a trap that counts every request, so
 * a run that reached for the network fails the test.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBaseUrl, opencodeLane } from "../../../scripts/agent/lanes/opencode.ts";
import type { LaneSetup } from "../../../scripts/agent/lanes/lane.ts";
import { openaiChat } from "../../../scripts/agent/model-server/openai-chat.ts";
import { startScriptedModel, type ScriptedModelServer } from "../../../scripts/agent/model-server/server.ts";
import type { Script } from "../../../scripts/agent/script.ts";
import type { RawLine } from "../../../scripts/agent/trajectory.ts";

const installed = opencodeLane.version();
const PROMPT = "You are working on ticket T-1 in the workspace. Write hello.txt, run the marker command, then stop.";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stands in for the npm registry and any HTTP(S) proxy: answers 503 / 403 and records what was asked. */
async function startTrap(): Promise<{ url: string; hits: string[]; stop(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.headers.host ?? ""}${req.url}`);
    res.writeHead(503).end("no network here");
  });
  server.on("connect", (req, socket) => {
    hits.push(`CONNECT ${req.url}`);
    socket.on("error", () => {});
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  const url = await listen(server);
  return { url, hits, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * A pass-through in front of the scripted model that adds `retry-after-ms` to error answers:
 * OpenCode retries a retryable provider error 5 times, waiting 2 s doubling each time unless
 * the provider says how long to wait, which would take a minute per failing test.
 */
async function startFastRetryFront(target: string): Promise<{ url: string; stop(): Promise<void> }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const upstream = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers };
      if ((answer.statusCode ?? 200) >= 400) headers["retry-after-ms"] = "20";
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.on("error", (err) => res.writeHead(502).end(String(err)));
    req.pipe(upstream);
  });
  const url = await listen(server);
  return { url, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Run {
  lines: RawLine[];
  code: number | null;
  seconds: number;
  setup: LaneSetup;
  workspace: string;
}

const roots: string[] = [];

/** Prepares the lane in a fresh home and runs the CLI to the end (or a 50 s cap). */
async function runLane(modelUrl: string, trapUrl: string, workspace: string, home: string): Promise<Run> {
  const setup: LaneSetup = {
    prompt: PROMPT,
    model: "scripted",
    modelBaseUrl: modelUrl,
    apiKey: "wirebench-dummy-key",
    workspace,
    home,
    hostHome: home,
    timeLimitS: 50,
  };
  const command = opencodeLane.prepare(setup);
  const mounts = opencodeLane.mounts();
  const toHost = (arg: string) => {
    for (const m of mounts) if (arg === m.sandbox || arg.startsWith(`${m.sandbox}/`)) return m.host + arg.slice(m.sandbox.length);
    return arg;
  };
  const [bin, ...args] = command.argv.map(toHost);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ...command.env,
    // The registry and every proxy lead to the trap; only loopback goes direct.
    npm_config_registry: trapUrl,
    NPM_CONFIG_REGISTRY: trapUrl,
    HTTPS_PROXY: trapUrl,
    HTTP_PROXY: trapUrl,
    https_proxy: trapUrl,
    http_proxy: trapUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
  const started = Date.now();
  const lines: RawLine[] = [];
  const child = spawn(bin, args, { cwd: workspace, env, stdio: ["ignore", "pipe", "pipe"] });
  const collect = (stream: "stdout" | "stderr") => {
    let rest = "";
    child[stream]!.setEncoding("utf8");
    child[stream]!.on("data", (chunk: string) => {
      const t = (Date.now() - started) / 1000;
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      for (const text of parts) lines.push({ t, stream, text });
    });
    child[stream]!.on("end", () => {
      if (rest) lines.push({ t: (Date.now() - started) / 1000, stream, text: rest });
    });
  };
  collect("stdout");
  collect("stderr");
  const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  clearTimeout(timer);
  return { lines, code, seconds: (Date.now() - started) / 1000, setup, workspace };
}

function freshDirs(): { workspace: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), "wirebench-opencode-"));
  roots.push(root);
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  return { workspace, home };
}

/** Reads an SSE answer into its `data:` payloads. */
function sseData(text: string): string[] {
  return text
    .split("\n\n")
    .map((block) => block.trim())
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length));
}

describe("openai-chat adapter (the direct loop's tool names)", () => {
  const directTools = [
    { type: "function", function: { name: "bash", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } } },
    { type: "function", function: { name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } },
    { type: "function", function: { name: "write_file", parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] } } },
    { type: "function", function: { name: "done", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] } } },
  ];
  const script: Script = {
    name: "direct",
    model: "scripted",
    steps: [
      { kind: "write", path: "/workspace/repo/a.txt", content: "A" },
      { kind: "bash", command: "ls /workspace" },
      { kind: "read", path: "/workspace/PROBLEM.md" },
      { kind: "say", text: "Thinking out loud." },
      { kind: "done", text: "Finished." },
    ],
  };
  let model: ScriptedModelServer;
  beforeAll(async () => {
    model = await startScriptedModel(script, { protocols: [openaiChat] });
  });
  afterAll(async () => {
    await model.stop();
  });

  /** The conversation after `turns` assistant turns (each a tool call answered by its result). */
  function conversation(turns: number): unknown[] {
    const messages: unknown[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "go" },
    ];
    for (let i = 0; i < turns; i++) {
      messages.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${i}_0`, type: "function", function: { name: "bash", arguments: "{}" } }] });
      messages.push({ role: "tool", tool_call_id: `call_${i}_0`, content: "ok" });
    }
    return messages;
  }
  async function ask(turns: number, extra: Record<string, unknown> = {}) {
    const res = await fetch(`${model.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "scripted", messages: conversation(turns), tools: directTools, ...extra }),
    });
    return res;
  }

  it("maps each step onto the offered tool and its argument names (plain JSON)", async () => {
    const answers: any[] = [];
    for (let turn = 0; turn < 5; turn++) answers.push(await (await ask(turn)).json());
    const calls = answers.map((a: any) => a.choices[0].message.tool_calls?.[0]?.function);
    expect(calls.map((c: any) => c && { name: c.name, args: JSON.parse(c.arguments) })).toEqual([
      { name: "write_file", args: { path: "/workspace/repo/a.txt", content: "A" } },
      { name: "bash", args: { command: "ls /workspace" } },
      { name: "read_file", args: { path: "/workspace/PROBLEM.md" } },
      undefined,
      { name: "done", args: { summary: "Finished." } },
    ]);
    expect(answers.map((a: any) => a.choices[0].finish_reason)).toEqual(["tool_calls", "tool_calls", "tool_calls", "stop", "tool_calls"]);
    expect(answers[3].choices[0].message.content).toBe("Thinking out loud.");
    for (const a of answers) {
      expect(a.object).toBe("chat.completion");
      expect(a.usage.prompt_tokens).toBeGreaterThan(0);
      expect(a.usage.completion_tokens).toBeGreaterThan(0);
      expect(a.usage.total_tokens).toBe(a.usage.prompt_tokens + a.usage.completion_tokens);
    }
    expect(answers[0].usage.prompt_tokens_details.cached_tokens).toBe(0);
    expect(answers[2].usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(0);
  });

  it("streams chunks with tool-call deltas, the finish reason, a usage chunk when asked, and [DONE]", async () => {
    const res = await ask(1, { stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    const args = chunks
      .flatMap((c) => c.choices.flatMap((ch: any) => ch.delta?.tool_calls ?? []))
      .map((t: any) => t.function?.arguments ?? "")
      .join("");
    expect(JSON.parse(args)).toEqual({ command: "ls /workspace" });
    expect(chunks.flatMap((c) => c.choices.map((ch: any) => ch.finish_reason)).filter(Boolean)).toEqual(["tool_calls"]);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });

    const quiet = sseData(await (await ask(3, { stream: true })).text());
    const text = quiet
      .slice(0, -1)
      .map((d) => JSON.parse(d))
      .flatMap((c) => c.choices.map((ch: any) => ch.delta?.content ?? ""))
      .join("");
    expect(text).toBe("Thinking out loud.");
    expect(quiet.some((d) => d !== "[DONE]" && JSON.parse(d).usage)).toBe(false);
  });

  it("without a done tool, done is final text; past the last step it keeps answering done", async () => {
    const res = await fetch(`${model.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "scripted", messages: conversation(9), tools: directTools.slice(0, 3) }),
    });
    const answer: any = await res.json();
    expect(answer.choices[0]).toMatchObject({ finish_reason: "stop", message: { role: "assistant", content: "Finished." } });
  });
});

describe.skipIf(!installed.ok)("opencode lane (real CLI, scripted model, no registry)", () => {
  let trap: Awaited<ReturnType<typeof startTrap>>;

  beforeAll(async () => {
    trap = await startTrap();
  });
  afterAll(async () => {
    await trap?.stop();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it("reports its version and mounts only the native binary", () => {
    expect(installed).toMatchObject({ ok: true });
    const mounts = opencodeLane.mounts();
    expect(mounts).toHaveLength(1);
    expect(mounts[0].sandbox).toBe("/opt/agents/opencode/bin");
    expect(existsSync(join(mounts[0].host, "opencode"))).toBe(true);
    // The config prepare writes, and the rg its grep/glob tools need (else it downloads one from GitHub).
    const { workspace, home } = freshDirs();
    const command = opencodeLane.prepare({
      prompt: PROMPT,
      model: "vendor/some-model",
      modelBaseUrl: "https://openrouter.ai/api/v1",
      apiKey: "k",
      workspace,
      home: "/home/agent",
      hostHome: home,
      timeLimitS: 60,
    });
    expect(command.argv.slice(0, 3)).toEqual(["/opt/agents/opencode/bin/opencode", "run", PROMPT]);
    expect(command.argv).toEqual(expect.arrayContaining(["--format", "json", "--model", "wirebench/vendor/some-model", "--dir", workspace]));
    expect(command.env).toMatchObject({ XDG_CONFIG_HOME: "/home/agent/.config", XDG_CACHE_HOME: "/home/agent/.cache", OPENROUTER_API_KEY: "k" });
    const config = JSON.parse(readFileSync(join(home, ".config", "opencode", "opencode.json"), "utf8"));
    expect(config.provider.wirebench).toMatchObject({ npm: "@ai-sdk/openai-compatible", options: { baseURL: "https://openrouter.ai/api/v1", apiKey: "{env:OPENROUTER_API_KEY}" } });
    expect(Object.keys(config.provider.wirebench.models)).toEqual(["vendor/some-model"]);
    expect(JSON.stringify(config)).not.toContain('"k"');
    expect(existsSync(join(home, ".cache", "opencode", "bin", "rg"))).toBe(true);
    // Base URLs as the harness gives them (no version) get /v1; versioned ones are kept.
    expect(chatBaseUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/v1");
    expect(chatBaseUrl("https://openrouter.ai/api")).toBe("https://openrouter.ai/api/v1");
    expect(chatBaseUrl("https://openrouter.ai/api/v1/")).toBe("https://openrouter.ai/api/v1");
  });

  it("writes a file, runs a command, says done: trajectory, usage, no provider failure, no network", async () => {
    const { workspace, home } = freshDirs();
    const script: Script = {
      name: "opencode-e2e",
      model: "scripted",
      steps: [
        { kind: "write", path: join(workspace, "hello.txt"), content: "hello from the scripted model\n" },
        // Output that mentions a rate limit: tool output must never count as a provider failure.
        { kind: "bash", command: `echo "vendor said 429 rate limit, insufficient quota" && touch ${join(workspace, "marker")} && echo made` },
        { kind: "done", text: "Done: hello.txt written and the marker created." },
      ],
    };
    const model: ScriptedModelServer = await startScriptedModel(script, { protocols: [openaiChat] });
    const hitsBefore = trap.hits.length;
    try {
      const run = await runLane(model.url, trap.url, workspace, home);
      const stderr = run.lines
        .filter((l) => l.stream === "stderr")
        .map((l) => l.text)
        .join("\n");
      expect(run.code, stderr).toBe(0);
      expect(readFileSync(join(workspace, "hello.txt"), "utf8")).toBe("hello from the scripted model\n");
      expect(existsSync(join(workspace, "marker"))).toBe(true);

      // One request per step, in order: no title request, no retries.
      expect(model.calls.map((c) => [c.protocol, c.turn, c.status])).toEqual([
        ["openai-chat", 0, 200],
        ["openai-chat", 1, 200],
        ["openai-chat", 2, 200],
      ]);
      // Nothing reached for the registry, a proxy, models.dev or GitHub.
      expect(trap.hits.slice(hitsBefore)).toEqual([]);

      const events = opencodeLane.normalize(run.lines, run.setup);
      expect(events.map((e) => e.kind)).toEqual(["system", "user", "tool_call", "tool_call", "message"]);
      expect(events[0]).toMatchObject({ kind: "system", model: "scripted", tools: [] });
      expect(events[1]).toMatchObject({ kind: "user", text: PROMPT });
      const calls = events.filter((e) => e.kind === "tool_call");
      expect(calls[0]).toMatchObject({
        tool: "write",
        input: { filePath: join(workspace, "hello.txt"), content: "hello from the scripted model\n" },
        result: { ok: true, exit_code: null },
      });
      expect(calls[1]).toMatchObject({ tool: "bash", result: { ok: true, exit_code: 0 } });
      expect((calls[1] as { input: { command: string } }).input.command).toContain("touch");
      expect((calls[1] as { result: { output: string } }).result.output).toContain("made");
      expect(events[4]).toMatchObject({ kind: "message", text: "Done: hello.txt written and the marker created." });
      let last = 0;
      for (const e of events) {
        expect(e.t).toBeGreaterThanOrEqual(0);
        if (e.kind === "tool_call") {
          expect(e.t_end).not.toBeNull();
          expect(e.t_end!).toBeGreaterThanOrEqual(e.t);
        }
        expect(e.t).toBeGreaterThanOrEqual(last - 1);
        last = e.t;
      }

      const usage = opencodeLane.usage(run.lines);
      expect(usage.input_tokens).toBeGreaterThan(0);
      expect(usage.output_tokens).toBeGreaterThan(0);
      expect(usage.cached_input_tokens).toBeGreaterThan(0);
      expect(usage.cached_input_tokens).toBeLessThan(usage.input_tokens);
      expect(usage.cost_usd).toBeNull();

      expect(opencodeLane.providerFailure(run.lines)).toBeNull();
      expect(run.seconds).toBeLessThan(60);
    } finally {
      await model.stop();
    }
  }, 60_000);

  it("a provider that fails with 529 is a provider error", async () => {
    const { workspace, home } = freshDirs();
    const script: Script = {
      name: "opencode-overloaded",
      model: "scripted",
      steps: [
        { kind: "fail", status: 529, body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) },
        { kind: "done", text: "never reached" },
      ],
    };
    const model = await startScriptedModel(script, { protocols: [openaiChat] });
    const front = await startFastRetryFront(model.url);
    try {
      const run = await runLane(front.url, trap.url, workspace, home);
      expect(run.code).not.toBe(0);
      // The first try and OpenCode's 5 retries, all on turn 0.
      expect(model.calls.length).toBeGreaterThanOrEqual(2);
      expect(model.calls.every((c) => c.turn === 0 && c.status === 529)).toBe(true);
      const failure = opencodeLane.providerFailure(run.lines);
      expect(failure).toMatchObject({ kind: "provider_error" });
      expect(failure!.message).toMatch(/overloaded/i);
      const events = opencodeLane.normalize(run.lines, run.setup);
      expect(events.map((e) => e.kind)).toEqual(["system", "user", "error"]);
      expect(opencodeLane.usage(run.lines)).toMatchObject({ input_tokens: 0, output_tokens: 0 });
      expect(run.seconds).toBeLessThan(60);
    } finally {
      await front.stop();
      await model.stop();
    }
  }, 60_000);

  it("a 429 rate-limit answer is a usage limit, with the reset time the provider gave", async () => {
    const { workspace, home } = freshDirs();
    const reset = Math.floor(Date.now() / 1000) + 3600;
    const script: Script = {
      name: "opencode-rate-limited",
      model: "scripted",
      steps: [
        {
          kind: "fail",
          status: 429,
          // As OpenRouter answers: the limit's headers inside the error's metadata, the reset in epoch milliseconds.
          body: JSON.stringify({
            error: {
              message: "Rate limit exceeded: free-models-per-day",
              code: 429,
              metadata: { headers: { "X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(reset * 1000) } },
            },
          }),
        },
        { kind: "done", text: "never reached" },
      ],
    };
    const model = await startScriptedModel(script, { protocols: [openaiChat] });
    const front = await startFastRetryFront(model.url);
    try {
      const run = await runLane(front.url, trap.url, workspace, home);
      expect(run.code).not.toBe(0);
      expect(model.calls.every((c) => c.turn === 0 && c.status === 429)).toBe(true);
      const failure = opencodeLane.providerFailure(run.lines);
      expect(failure).toMatchObject({ kind: "usage_limit", resetEpoch: reset });
      expect(failure!.message).toMatch(/rate limit/i);
      expect(run.seconds).toBeLessThan(60);
    } finally {
      await front.stop();
      await model.stop();
    }
  }, 60_000);
});
