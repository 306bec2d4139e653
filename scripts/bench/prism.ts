import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../farm/paths.ts";

/**
 * Starts Prism mocking one list endpoint whose example is a real 50-row page,
 * so its payload matches what the farm serves.
 */
export async function startPrism(port: number, examplePage: unknown): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "wb-prism-"));
  const spec = {
    openapi: "3.1.0",
    info: { title: "HireWire (Prism mock)", version: "1.0.0" },
    paths: {
      "/v1/candidates": {
        get: {
          operationId: "listCandidates",
          parameters: [
            { name: "page", in: "query", schema: { type: "integer" } },
            { name: "per_page", in: "query", schema: { type: "integer" } },
          ],
          responses: { "200": { description: "A page of candidates", content: { "application/json": { schema: { type: "object" }, example: examplePage } } } },
        },
      },
    },
  };
  const file = join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(spec));
  const bin = join(projectRoot(), "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
  const proc: ChildProcess = spawn(process.execPath, [bin, "mock", file, "--port", String(port), "--host", "127.0.0.1", "--errors", "false"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d;
      if (/listening on/i.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.on("exit", (code) => reject(new Error(`prism exited with ${code}:\n${out}`)));
  });
  proc.stdout!.removeAllListeners("data");
  proc.stdout!.resume();
  proc.stderr!.resume();
  return { url: `http://127.0.0.1:${port}`, stop: () => proc.kill("SIGTERM") };
}
