import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { runCli, startServe } from "./run-cli.ts";

describe("wirebench check", () => {
  it("passes on the shipped declarations", () => {
    const r = runCli(["check"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ok {4}staffline/);
  });

  it("fails with exit 2 and the zod path on a broken declaration", () => {
    const dir = mkdtempSync(join(tmpdir(), "wb-check-"));
    const file = join(dir, "broken.ts");
    const schema = join(projectRoot(), "declarations", "vendors", "hirewire.ts");
    writeFileSync(
      file,
      `import h from ${JSON.stringify(schema)};\nimport { defineVendor } from ${JSON.stringify(join(projectRoot(), "declarations", "schema", "define.ts"))};\nexport default defineVendor({ ...h, paging: { ...h.paging, maxLimit: -5 } });\n`,
    );
    const r = runCli(["check", file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/at paging\.maxLimit/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("wirebench serve and world create", () => {
  let farm: Awaited<ReturnType<typeof startServe>>;
  beforeAll(async () => {
    farm = await startServe([], { WIREBENCH_ADMIN_TOKEN: "cli-test-token" });
  });
  afterAll(() => {
    farm?.proc.kill("SIGTERM");
  });

  it("prints the admin token and a curl line that works", async () => {
    expect(farm.token).toBe("cli-test-token");
    const curl = /curl -s -X POST (\S+) -H 'authorization: Bearer (\S+)' -H 'content-type: application\/json' -d '(.+)'/.exec(farm.output())!;
    const res = await fetch(curl[1], { method: "POST", headers: { authorization: `Bearer ${curl[2]}`, "content-type": "application/json" }, body: curl[3] });
    expect(res.status).toBe(201);
  });

  it("creates a world whose credentials work against the vendor surface", async () => {
    const r = runCli(["world", "create", "--vendors", "ats=hirewire", "--seed", "3", "--json", "--farm", farm.url], { WIREBENCH_ADMIN_TOKEN: "cli-test-token" });
    expect(r.code, r.stderr).toBe(0);
    const world = JSON.parse(r.stdout);
    const v = world.vendors.ats;
    const res = await fetch(`${v.baseUrl}/v1/candidates?per_page=2`, { headers: { "x-api-key": v.env.HIREWIRE_API_KEY } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(2);
  });

  it.each([
    [["world", "create", "--vendors", "ats"], /role=vendor pairs/],
    [["world", "create", "--vendors", "ats=nosuch"], /unknown vendor "nosuch"/],
    [["world", "create", "--vendors", "ats=hirewire", "--seed", "x"], /--seed must be a non-negative integer/],
    [["world", "create"], /give --task T or --vendors/],
    [["world", "create", "--task", "task-9999"], /unknown task "task-9999"/],
    [["world", "create", "--vendors", "ats=hirewire", "--farm", "not a url"], /--farm must be a URL/],
  ])("exits 2 with one clear line for %j", (args, message) => {
    const r = runCli([...args, ...(args.includes("--farm") ? [] : ["--farm", farm.url])], { WIREBENCH_ADMIN_TOKEN: "cli-test-token" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it.each([
    [["validate", "task-0001", "--farms", "0"], /--farms must be a positive integer/],
    [["validate", "task-0001", "--farms", "2", "--farm", "http://127.0.0.1:9"], /cannot be combined with --farm/],
  ])("validate exits 2 with one clear line for %j", (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("exits 2 when the admin token is wrong", () => {
    const r = runCli(["world", "create", "--vendors", "ats=hirewire", "--farm", farm.url], { WIREBENCH_ADMIN_TOKEN: "wrong" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/admin token is not valid/);
  });
});
