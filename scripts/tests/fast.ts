/**
 * `npm run test:fast`: lint, then the type check beside the fast tier of vitest
 * (WIREBENCH_TESTS=fast) rather than before it. The type check is one process
 * of 15-25 s that the vitest run, mostly waiting on workerd and child
 * processes, has room for on two cores. Exits non-zero when either fails.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const bin = (name: string) => join(import.meta.dirname, "..", "..", "node_modules", ".bin", name);

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("error", (err) => {
      console.error(`${label}: ${err.message}`);
      done(1);
    });
    child.on("exit", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const lint = await run("lint", bin("biome"), ["check", "."]);
if (lint !== 0) process.exit(lint);
const [typecheck, tests] = await Promise.all([
  run("typecheck", bin("tsc"), ["--noEmit", "-p", "."]),
  run("vitest", bin("vitest"), ["run", ...process.argv.slice(2)], { ...process.env, WIREBENCH_TESTS: "fast" }),
]);
if (typecheck !== 0) console.error(`test:fast: the type check failed (exit ${typecheck})`);
if (tests !== 0) console.error(`test:fast: vitest failed (exit ${tests})`);
process.exit(typecheck || tests);
