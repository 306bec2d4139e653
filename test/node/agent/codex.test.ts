/**
 * The codex lane end to end: the real CLI (outside any sandbox: the lane's
 * sandbox paths in argv are mapped back to their host folders) against the
 * scripted model server's `openai-responses` protocol, with a fresh home and
 * every proxy pointed at a trap that records each request, so a run that
 * reached for the network fails the test. Then the lane's parsing of what
 * Codex prints, and the protocol's turn counting, on made-up input.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexLane, resetEpochOf } from "../../../scripts/agent/lanes/codex.ts";
import type { LaneSetup } from "../../../scripts/agent/lanes/lane.ts";
import { offeredTools, openaiResponses } from "../../../scripts/agent/model-server/openai-responses.ts";
import type { ModelProtocol } from "../../../scripts/agent/model-server/protocol.ts";
import { startScriptedModel } from "../../../scripts/agent/model-server/server.ts";
import type { Script } from "../../../scripts/agent/script.ts";
import type { DraftEvent, RawLine } from "../../../scripts/agent/trajectory.ts";

const installed = codexLane.version();
const PROMPT = "You are working on ticket T-1 in the workspace. Write hello.txt, run the marker command, then stop.";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stands in for any HTTP(S) proxy: answers 503 / 403 and records what was asked. */
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

/** The protocol, keeping every request body it answered. */
function recording(): { protocol: ModelProtocol; bodies: any[] } {
  const bodies: any[] = [];
  return { bodies, protocol: { ...openaiResponses, respond: (step, ctx) => (bodies.push(ctx.body), openaiResponses.respond(step, ctx)) } };
}

interface Run {
  lines: RawLine[];
  code: number | null;
  seconds: number;
  setup: LaneSetup;
}

const roots: string[] = [];

function freshDirs(): { workspace: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), "wirebench-codex-"));
  roots.push(root);
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  return { workspace, home };
}

/** Prepares the lane in a fresh home and runs the CLI to the end (or a 50 s cap). */
async function runLane(model: string, modelUrl: string, trapUrl: string, workspace: string, home: string): Promise<Run> {
  const setup: LaneSetup = { prompt: PROMPT, model, modelBaseUrl: modelUrl, apiKey: "sk-wirebench-dummy-key", workspace, home, hostHome: home, timeLimitS: 50, scripted: true };
  const command = codexLane.prepare(setup);
  const mounts = codexLane.mounts();
  const toHost = (arg: string) => {
    for (const m of mounts) if (arg === m.sandbox || arg.startsWith(`${m.sandbox}/`)) return m.host + arg.slice(m.sandbox.length);
    return arg;
  };
  const [bin, ...args] = command.argv.map(toHost);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    ...command.env,
    // Every proxy leads to the trap; only loopback goes direct.
    HTTPS_PROXY: trapUrl,
    HTTP_PROXY: trapUrl,
    ALL_PROXY: trapUrl,
    https_proxy: trapUrl,
    http_proxy: trapUrl,
    all_proxy: trapUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    // A credential the commands must see (Codex hides *KEY*, *SECRET*, *TOKEN* variables by default).
    VENDOR_CLIENT_SECRET: "vendor-secret-value",
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
  return { lines, code, seconds: (Date.now() - started) / 1000, setup };
}

/** The model's own items in the last request (what Codex replayed of the turns played). */
function modelItems(body: any): string[] {
  return (body?.input ?? [])
    .filter((i: any) => ["function_call", "custom_tool_call", "local_shell_call"].includes(i?.type) || i?.role === "assistant")
    .map((i: any) => `${i.type}:${i.name ?? i.role}`);
}

describe.skipIf(!installed.ok)("codex lane (real CLI, scripted model, no network)", () => {
  let trap: Awaited<ReturnType<typeof startTrap>>;

  beforeAll(async () => {
    trap = await startTrap();
  });
  afterAll(async () => {
    await trap?.stop();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it("reports its version, mounts only the native binary's folder, and configures a fresh home", () => {
    expect(installed).toMatchObject({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const mounts = codexLane.mounts();
    expect(mounts).toHaveLength(1);
    expect(mounts[0].sandbox).toMatch(/^\/opt\/agents\/codex\/[a-z0-9_]+-[a-z0-9_-]+$/);
    // The CLI and the host of code-mode cells.
    expect(existsSync(join(mounts[0].host, "bin", "codex"))).toBe(true);
    expect(existsSync(join(mounts[0].host, "bin", "codex-code-mode-host"))).toBe(true);
    const { home } = freshDirs();
    const cmd = codexLane.prepare({
      prompt: PROMPT,
      model: "scripted",
      modelBaseUrl: "http://127.0.0.1:1",
      apiKey: "k",
      workspace: "/workspace",
      home: "/home/agent",
      hostHome: home,
      timeLimitS: 10,
      scripted: true,
    });
    expect(cmd.argv[0]).toBe(`${mounts[0].sandbox}/bin/codex`);
    expect(cmd.argv.slice(1, 3)).toEqual(["exec", PROMPT]);
    expect(cmd.argv).toEqual(expect.arrayContaining(["--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--ephemeral"]));
    expect(cmd.argv.join(" ")).toContain("-C /workspace --model scripted");
    expect(cmd.env).toMatchObject({ CODEX_HOME: "/home/agent/.codex", HOME: "/home/agent", OPENAI_API_KEY: "k" });
    const config = readFileSync(join(home, ".codex", "config.toml"), "utf8");
    expect(config).toContain('base_url = "http://127.0.0.1:1/v1"');
    expect(config).toContain('model_catalog_json = "/home/agent/.codex/wirebench-models.json"');
    expect(config).toMatch(/request_max_retries = 1\nstream_max_retries = 1\n/);
    // A real provider: its own endpoint, Codex's metadata and retries.
    const real = freshDirs().home;
    codexLane.prepare({
      prompt: PROMPT,
      model: "gpt-5.5",
      modelBaseUrl: "https://api.openai.com",
      apiKey: "k",
      workspace: "/workspace",
      home: "/home/agent",
      hostHome: real,
      timeLimitS: 10,
      scripted: false,
    });
    const realConfig = readFileSync(join(real, ".codex", "config.toml"), "utf8");
    expect(realConfig).toContain('base_url = "https://api.openai.com/v1"');
    expect(realConfig).toContain('env_key = "OPENAI_API_KEY"');
    expect(realConfig).not.toContain("model_catalog_json");
    expect(realConfig).toMatch(/request_max_retries = 4\nstream_max_retries = 5\n/);
    expect(existsSync(join(real, ".codex", "wirebench-models.json"))).toBe(false);
  });

  // `scripted` is a model Codex has no metadata for: the lane lends it the catalog's first
  // model's, which works in code mode (a JavaScript `exec` cell calling the nested tools).
  // `gpt-5.5` has metadata of its own: `apply_patch` and `exec_command` offered directly.
  describe.each([
    { model: "scripted", items: ["custom_tool_call:exec", "custom_tool_call:exec"] },
    { model: "gpt-5.5", items: ["custom_tool_call:apply_patch", "function_call:exec_command"] },
  ])("model $model", ({ model, items }) => {
    it("writes a file, runs a command, says done: trajectory, usage, no provider failure, no network", async () => {
      const { workspace, home } = freshDirs();
      const script: Script = {
        name: "codex-e2e",
        model,
        steps: [
          { kind: "write", path: join(workspace, "hello.txt"), content: "hello from the scripted model\n" },
          // Output that mentions limits: tool output must never count as a provider failure.
          { kind: "bash", command: `echo "vendor said 429 Too Many Requests; you've hit your usage limit" && echo "secret=$VENDOR_CLIENT_SECRET" && touch ${join(workspace, "marker")} && echo made` },
          { kind: "done", text: "Done: hello.txt written and the marker created." },
        ],
      };
      const rec = recording();
      const server = await startScriptedModel(script, { protocols: [rec.protocol] });
      const hitsBefore = trap.hits.length;
      try {
        const run = await runLane(model, server.url, trap.url, workspace, home);
        const stderr = run.lines
          .filter((l) => l.stream === "stderr")
          .map((l) => l.text)
          .join("\n");
        expect(run.code, stderr).toBe(0);
        expect(readFileSync(join(workspace, "hello.txt"), "utf8")).toBe("hello from the scripted model\n");
        expect(existsSync(join(workspace, "marker"))).toBe(true);

        // One request per step, in order: no retries, no side requests.
        expect(server.calls.map((c) => [c.protocol, c.path, c.turn, c.status])).toEqual([
          ["openai-responses", "/v1/responses", 0, 200],
          ["openai-responses", "/v1/responses", 1, 200],
          ["openai-responses", "/v1/responses", 2, 200],
        ]);
        expect(rec.bodies.every((b) => b.stream === true && b.model === model)).toBe(true);
        expect(modelItems(rec.bodies[2])).toEqual(items);
        // No hosted web search: it would reach the internet around the sandbox's proxy.
        expect(rec.bodies.flatMap((b) => offeredTools(b).map((t) => t.name))).not.toContain("web_search");
        // Nothing reached for GitHub, chatgpt.com, an update check or telemetry.
        expect(trap.hits.slice(hitsBefore)).toEqual([]);
        expect(existsSync(join(home, ".codex", "wirebench-models.json"))).toBe(model === "scripted");

        const events = codexLane.normalize(run.lines, run.setup);
        expect(events.map((e) => e.kind)).toEqual(["system", "user", "tool_call", "tool_call", "message"]);
        expect(events[0]).toMatchObject({ kind: "system", model, tools: [] });
        expect(events[1]).toMatchObject({ kind: "user", text: PROMPT });
        const calls = events.filter((e): e is Extract<DraftEvent, { kind: "tool_call" }> => e.kind === "tool_call");
        expect(calls[0]).toMatchObject({
          tool: "apply_patch",
          input: { changes: [{ path: join(workspace, "hello.txt"), kind: "add" }] },
          result: { ok: true, exit_code: null, output: `add ${join(workspace, "hello.txt")}` },
        });
        expect(calls[1]).toMatchObject({ tool: "shell", result: { ok: true, exit_code: 0 } });
        expect((calls[1].input as { command: string }).command).toContain("touch");
        expect(calls[1].result!.output).toContain("made");
        expect(calls[1].result!.output).toContain("secret=vendor-secret-value");
        expect(events[4]).toMatchObject({ kind: "message", text: "Done: hello.txt written and the marker created." });
        let last = 0;
        for (const e of events) {
          expect(e.t).toBeGreaterThanOrEqual(last);
          if (e.kind === "tool_call") {
            expect(e.t_end).not.toBeNull();
            expect(e.t_end!).toBeGreaterThanOrEqual(e.t);
          }
          last = e.t;
        }

        const usage = codexLane.usage(run.lines);
        expect(usage.input_tokens).toBeGreaterThan(0);
        expect(usage.output_tokens).toBeGreaterThan(0);
        expect(usage.cached_input_tokens).toBeGreaterThan(0);
        expect(usage.cached_input_tokens).toBeLessThan(usage.input_tokens);
        expect(usage.cost_usd).toBeNull();

        expect(codexLane.providerFailure(run.lines)).toBeNull();
        expect(run.seconds).toBeLessThan(30);
      } finally {
        await server.stop();
      }
    }, 60_000);
  });

  it.each([
    { status: 529, body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }), says: /unexpected status 529/ },
    { status: 500, body: JSON.stringify({ error: { type: "server_error", message: "The server had an error while processing your request." } }), says: /high demand/ },
  ])(
    "a provider that fails with $status is a provider error, after a bounded number of retries",
    async ({ status, body, says }) => {
      const { workspace, home } = freshDirs();
      const script: Script = {
        name: `codex-${status}`,
        model: "scripted",
        steps: [
          { kind: "fail", status, body },
          { kind: "done", text: "never reached" },
        ],
      };
      const server = await startScriptedModel(script, { protocols: [openaiResponses] });
      try {
        const run = await runLane("scripted", server.url, trap.url, workspace, home);
        expect(run.code).not.toBe(0);
        // The first try and the retries a scripted provider gets ((1 + 1) x (1 + 1)), all on turn 0.
        expect(server.calls.length).toBeGreaterThanOrEqual(2);
        expect(server.calls.length).toBeLessThanOrEqual(4);
        expect(server.calls.every((c) => c.turn === 0 && c.status === status)).toBe(true);
        const failure = codexLane.providerFailure(run.lines);
        expect(failure).toMatchObject({ kind: "provider_error" });
        expect(failure!.message).toMatch(says);
        const events = codexLane.normalize(run.lines, run.setup);
        expect(events.slice(0, 2).map((e) => e.kind)).toEqual(["system", "user"]);
        expect(events.slice(2).every((e) => e.kind === "error")).toBe(true);
        expect(events[events.length - 1]).toMatchObject({ kind: "error", text: expect.stringMatching(says) });
        expect(codexLane.usage(run.lines)).toMatchObject({ input_tokens: 0, output_tokens: 0 });
        expect(run.seconds).toBeLessThan(30);
      } finally {
        await server.stop();
      }
    },
    60_000,
  );

  it("a 429 usage_limit_reached answer is a usage limit, with the reset time the provider gave", async () => {
    const { workspace, home } = freshDirs();
    // On a minute: Codex prints the reset as a time of day ("try again at 3:45 PM").
    const reset = Math.floor((Date.now() / 1000 + 2 * 3600) / 60) * 60;
    const script: Script = {
      name: "codex-usage-limit",
      model: "scripted",
      steps: [
        {
          kind: "fail",
          status: 429,
          body: JSON.stringify({ error: { type: "usage_limit_reached", message: "The usage limit has been reached", plan_type: "plus", resets_at: reset, resets_in_seconds: 7200 } }),
        },
        { kind: "done", text: "never reached" },
      ],
    };
    const server = await startScriptedModel(script, { protocols: [openaiResponses] });
    try {
      const run = await runLane("scripted", server.url, trap.url, workspace, home);
      expect(run.code).not.toBe(0);
      // A usage limit is not retried.
      expect(server.calls.map((c) => [c.turn, c.status])).toEqual([[0, 429]]);
      const failure = codexLane.providerFailure(run.lines);
      expect(failure).toMatchObject({ kind: "usage_limit", resetEpoch: reset });
      expect(failure!.message).toMatch(/hit your usage limit/i);
      expect(codexLane.normalize(run.lines, run.setup).map((e) => e.kind)).toEqual(["system", "user", "error"]);
      expect(run.seconds).toBeLessThan(30);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe("codex lane: reading what the CLI prints", () => {
  const setup = { model: "m", prompt: "p" };
  const out = (t: number, ev: unknown): RawLine => ({ t, stream: "stdout", text: JSON.stringify(ev) });

  it("retries the CLI got past are no provider failure; a stream that died is", () => {
    const recovered = [
      out(0.1, { type: "thread.started", thread_id: "x" }),
      out(0.2, { type: "turn.started" }),
      out(1, { type: "error", message: "Reconnecting... 1/2 (stream disconnected before completion: error decoding response body)" }),
      out(2, { type: "item.completed", item: { id: "i0", type: "agent_message", text: "done" } }),
      out(2.1, { type: "turn.completed", usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 3 } }),
    ];
    expect(codexLane.providerFailure(recovered)).toBeNull();
    expect(codexLane.usage(recovered)).toEqual({ input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, cost_usd: null });
    expect(codexLane.normalize(recovered, setup).map((e) => e.kind)).toEqual(["system", "user", "error", "message"]);

    const died = [...recovered.slice(0, 3), out(3, { type: "turn.failed", error: { message: "stream disconnected before completion: idle timeout waiting for SSE" } })];
    expect(codexLane.providerFailure(died)).toMatchObject({ kind: "provider_error" });
    // Killed at the wall clock mid-retry: what the CLI said last.
    expect(codexLane.providerFailure(recovered.slice(0, 3))).toMatchObject({ kind: "provider_error" });
    // A failure the CLI printed outside its JSON stream.
    expect(codexLane.providerFailure([{ t: 0, stream: "stderr", text: "Error: unexpected status 503 Service Unavailable" }])).toMatchObject({ kind: "provider_error" });
    // A turn that failed for the agent's own reasons is not the provider's.
    expect(codexLane.providerFailure([out(1, { type: "turn.failed", error: { message: "Codex ran out of room in the model's context window." } })])).toBeNull();
  });

  it("limits and errors in tool output, messages and reasoning are never read", () => {
    const lines = [
      out(0.1, { type: "thread.started", thread_id: "x" }),
      out(1, { type: "item.started", item: { id: "c1", type: "command_execution", command: "curl vendor", aggregated_output: "", exit_code: null, status: "in_progress" } }),
      out(2, {
        type: "item.completed",
        item: {
          id: "c1",
          type: "command_execution",
          command: "curl vendor",
          aggregated_output: `HTTP/1.1 429 Too Many Requests\n{"error":{"type":"usage_limit_reached","resets_at":1767225600}}\n${"x".repeat(5000)}`,
          exit_code: 22,
          status: "failed",
        },
      }),
      out(3, { type: "item.completed", item: { id: "r1", type: "reasoning", text: "The vendor says unexpected status 500; you've hit your usage limit." } }),
      out(4, { type: "item.completed", item: { id: "m1", type: "agent_message", text: "Quota exceeded. Check your plan and billing details." } }),
      out(5, { type: "item.completed", item: { id: "f1", type: "file_change", changes: [{ path: "/workspace/repo/a.ts", kind: "update" }], status: "failed" } }),
      out(5.5, { type: "item.completed", item: { id: "s1", type: "collab_tool_call", tool: "spawn_agent", prompt: "look at the docs", status: "completed" } }),
      out(6, { type: "turn.completed", usage: { input_tokens: 7, cached_input_tokens: 0, output_tokens: 2 } }),
    ];
    expect(codexLane.providerFailure(lines)).toBeNull();
    const events = codexLane.normalize(lines, setup);
    expect(events.map((e) => e.kind)).toEqual(["system", "user", "tool_call", "reasoning", "message", "tool_call", "tool_call"]);
    expect(events[6]).toMatchObject({ tool: "spawn_agent", input: { prompt: "look at the docs" }, result: { ok: true } });
    const [shell, patch] = events.filter((e): e is Extract<DraftEvent, { kind: "tool_call" }> => e.kind === "tool_call");
    expect(shell).toMatchObject({ tool: "shell", t: 1, t_end: 2, input: { command: "curl vendor" }, result: { ok: false, exit_code: 22 } });
    expect(shell.result!.output.length).toBeLessThan(4_100);
    expect(shell.result!.output).toContain("more characters");
    expect(patch).toMatchObject({ tool: "apply_patch", t: 5, t_end: 5, input: { changes: [{ path: "/workspace/repo/a.ts", kind: "update" }] }, result: { ok: false } });
  });

  it("a CLI that dies before its turn keeps what it said on stderr", () => {
    const events = codexLane.normalize([{ t: 0.1, stream: "stderr", text: "Error loading config.toml: unknown configuration field `x`" }], setup);
    expect(events).toEqual([
      { kind: "user", t: 0, text: "p" },
      { kind: "error", t: 0.1, text: "Error loading config.toml: unknown configuration field `x`" },
    ]);
  });

  it("reads the reset time in each form Codex prints it", () => {
    const now = new Date(2026, 11, 1, 9, 30).getTime();
    expect(resetEpochOf('{"resets_at": 1796121900}', now)).toBe(1796121900);
    expect(resetEpochOf("You’ve hit your usage limit. Try again at 10:45 AM.", now)).toBe(new Date(2026, 11, 1, 10, 45).getTime() / 1000);
    // A time of day already past is tomorrow's.
    expect(resetEpochOf("try again at 8:05 AM.", now)).toBe(new Date(2026, 11, 2, 8, 5).getTime() / 1000);
    expect(resetEpochOf("try again at 12:15 PM.", now)).toBe(new Date(2026, 11, 1, 12, 15).getTime() / 1000);
    expect(resetEpochOf("try again at Dec 4th, 2026 9:45 PM.", now)).toBe(new Date(2026, 11, 4, 21, 45).getTime() / 1000);
    expect(resetEpochOf("You’ve hit your usage limit. Try again later.", now)).toBeUndefined();
  });
});

describe("openai-responses protocol: turns", () => {
  it("counts runs of the model's items, whatever a turn held", () => {
    const user = { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] };
    const tools = { type: "additional_tools", role: "developer", tools: [] };
    expect(openaiResponses.turnOf({ input: [tools, user] })).toBe(0);
    expect(
      openaiResponses.turnOf({
        input: [
          user,
          { type: "reasoning", summary: [] },
          { type: "function_call", call_id: "a", name: "exec_command", arguments: "{}" },
          { type: "function_call_output", call_id: "a", output: "ok" },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "now the patch" }] },
          { type: "custom_tool_call", call_id: "b", name: "apply_patch", input: "*** Begin Patch" },
          { type: "custom_tool_call_output", call_id: "b", output: "Done" },
        ],
      }),
    ).toBe(2);
    expect(openaiResponses.matches("POST", "/v1/responses")).toBe(true);
    expect(openaiResponses.matches("POST", "/v1/chat/completions")).toBe(false);
  });

  /** Posts one request to a scripted server and reads the stream's events. */
  async function stream(script: Script, body: unknown): Promise<any[]> {
    const server = await startScriptedModel(script, { protocols: [openaiResponses] });
    try {
      const res = await fetch(`${server.url}/v1/responses`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const text = await res.text();
      return text
        .split("\n\n")
        .filter((b) => b.trim())
        .map((block) => {
          const [event, data] = block.split("\n");
          const parsed = JSON.parse(data.slice("data: ".length));
          expect(event).toBe(`event: ${parsed.type}`);
          return parsed;
        });
    } finally {
      await server.stop();
    }
  }

  const shellTools = [
    { type: "function", name: "exec_command", parameters: { properties: { cmd: {}, yield_time_ms: {} } } },
    { type: "function", name: "write_stdin", parameters: { properties: { session_id: {}, chars: {} } } },
  ];

  it("streams a step as the events Codex reads, ending with usage", async () => {
    const events = await stream(
      {
        name: "s",
        model: "scripted",
        steps: [
          { kind: "bash", command: "ls" },
          { kind: "done", text: "ok" },
        ],
      },
      { model: "scripted", stream: true, tools: shellTools, input: [{ type: "message", role: "user", content: [] }] },
    );
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      ...Array(events.length - 6).fill("response.function_call_arguments.delta"),
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const done = events[events.length - 2].item;
    expect(done).toMatchObject({ type: "function_call", name: "exec_command", call_id: "call_scripted_0" });
    expect(JSON.parse(done.arguments)).toEqual({ cmd: "ls", yield_time_ms: 30_000 });
    const usage = events[events.length - 1].response.usage;
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  it("polls a command still running instead of playing the next step, and the poll counts as no turn", async () => {
    const script: Script = {
      name: "s",
      model: "scripted",
      steps: [
        { kind: "bash", command: "sleep 60" },
        { kind: "done", text: "ok" },
      ],
    };
    const ran = [
      { type: "message", role: "user", content: [] },
      { type: "function_call", call_id: "call_scripted_0", name: "exec_command", arguments: "{}" },
      { type: "function_call_output", call_id: "call_scripted_0", output: "Chunk ID: 1\nWall time: 30.0 seconds\nProcess running with session ID 7\nOutput:\n" },
    ];
    const poll = (await stream(script, { model: "scripted", stream: true, tools: shellTools, input: ran })).at(-2).item;
    expect(poll).toMatchObject({ type: "function_call", name: "write_stdin", call_id: expect.stringMatching(/^poll_scripted_/) });
    expect(JSON.parse(poll.arguments)).toMatchObject({ session_id: 7, chars: "" });
    const exited = [...ran, poll, { type: "function_call_output", call_id: poll.call_id, output: "Process exited with code 0\nOutput:\n" }];
    expect(openaiResponses.turnOf({ input: exited })).toBe(1);
    const next = (await stream(script, { model: "scripted", stream: true, tools: shellTools, input: exited })).at(-2).item;
    expect(next).toMatchObject({ type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] });
  });
});
