import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { RawLine } from "../trajectory.ts";
import { eventFormat } from "./exec.ts";
import { parseAllowHost, parsePassEnv, renderTemplate } from "./exec-template.ts";

const awkward = { prompt_file: "/home/it's here/prompt.md", workspace: "/work space/$(touch /tmp/x)", agent_dir: "/a;b`c`" };
/** The argv a rendered command line gives a program, as `sh` parses it. */
const argvOf = (template: string) => {
  const r = spawnSync("sh", ["-c", `${renderTemplate(template, awkward)}`], { encoding: "utf8" });
  return r.stdout.split("\0").slice(0, -1);
};

describe("the exec lane's command template", () => {
  it("puts each placeholder in as one word, whatever its path holds", () => {
    expect(argvOf(`printf '%s\\0' {workspace} {prompt_file} {agent_dir}/bin "literal {x}"`)).toEqual([awkward.workspace, awkward.prompt_file, `${awkward.agent_dir}/bin`, "literal {x}"]);
  });

  it("leaves what is not a placeholder alone: shell variables, braces, escapes", () => {
    const shellVars = ["$", "{HOME} $", "{workspace}"].join("");
    expect(renderTemplate(`echo ${shellVars} {x} \\{workspace} {a,b}`, awkward)).toBe(`echo ${shellVars} {x} \\{workspace} {a,b}`);
  });

  it.each([
    ["", /must name a command/],
    ["   ", /must name a command/],
    ["{prompt_file} {workspace}", /must name a command/],
    ["cat '{prompt_file}'", /outside quotes/],
    ['cat "{workspace}/PROBLEM.md"', /outside quotes/],
    ["echo 'unterminated", /unterminated/],
    ["echo \0", /NUL/],
  ])("refuses %j", (template, message) => {
    expect(() => renderTemplate(template, awkward)).toThrow(message);
  });
});

describe("--allow-host and --pass-env", () => {
  it("takes DNS names with an optional port", () => {
    expect(parseAllowHost("api.anthropic.com")).toBe("api.anthropic.com:443");
    expect(parseAllowHost("API.OpenAI.com.")).toBe("api.openai.com:443");
    expect(parseAllowHost("llm.example.net:8443")).toBe("llm.example.net:8443");
  });

  it.each([
    "localhost",
    "127.0.0.1",
    "10.0.0.8:443",
    "[::1]:443",
    "https://api.example.com",
    "api.example.com/v1",
    "*.example.com",
    "example",
    "api.example.com:0",
    "api.example.com:70000",
    "box.local",
    "-x.example.com",
  ])("refuses %j", (value) => {
    expect(() => parseAllowHost(value)).toThrow(/--allow-host/);
  });

  it("hands over set variables only, and none the harness sets", () => {
    expect(parsePassEnv(["MY_KEY"], { MY_KEY: "v" })).toEqual({ MY_KEY: "v" });
    expect(() => parsePassEnv(["MY_KEY"], {})).toThrow(/not set here/);
    for (const name of ["PATH", "HOME", "https_proxy", "NO_PROXY", "VENDOR_BASE_URL", "OUTPUT_DIR", "WIREBENCH_BRIDGE"])
      expect(() => parsePassEnv([name], { [name]: "x" })).toThrow(/sets that variable/);
    expect(() => parsePassEnv(["A-B"], { "A-B": "x" })).toThrow(/variable name/);
    // A provider's endpoint is the agent's to choose.
    expect(parsePassEnv(["OPENAI_BASE_URL"], { OPENAI_BASE_URL: "https://llm.example.net/v1" })).toEqual({ OPENAI_BASE_URL: "https://llm.example.net/v1" });
  });
});

describe("known event formats", () => {
  const out = (...events: unknown[]): RawLine[] => [{ t: 0, stream: "stdout", text: "starting up" }, ...events.map((e, i) => ({ t: i, stream: "stdout" as const, text: JSON.stringify(e) }))];
  it("are told apart by their first event; anything else is none", () => {
    expect(eventFormat(out({ type: "system", subtype: "init", model: "m", tools: [] }))?.id).toBe("claude-code");
    expect(eventFormat(out({ type: "thread.started", thread_id: "t" }))?.id).toBe("codex");
    expect(eventFormat(out({ type: "step_start", sessionID: "s", part: { type: "step-start" } }))?.id).toBe("opencode");
    expect(eventFormat(out({ type: "system", model: "m", tools: ["bash"] }))?.id).toBe("direct");
    expect(eventFormat(out({ type: "progress", pct: 10 }))).toBeNull();
    expect(eventFormat(out())).toBeNull();
    expect(eventFormat([{ t: 0, stream: "stderr", text: JSON.stringify({ type: "thread.started" }) }])).toBeNull();
  });
});
