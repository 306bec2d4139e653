/**
 * @module main
 * The `wirebench` command line: its verbs and options. Each verb loads its module only when it
 * runs, so `--help` and a usage error answer without loading the farm, the grader or the lanes.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { Command } from "commander";
import { execOptions } from "./commands/exec-options.ts";
import { guarded, UsageError } from "./errors.ts";
import { registerSubmissionVerbs } from "./commands/submission-verbs.ts";
import { HELD_OUT_CONDITION, heldOutActive, heldOutFolder, MOUNT_ENV, mountHeldOut } from "../harness/held-out.ts";

// Held-out tasks (WIREBENCH_TASKS or --tasks DIR): mount them, then run again under the import
// condition that resolves the task registry to theirs and ours together.
const heldOut = heldOutFolder(process.argv.slice(2), process.env);
if (heldOut && !heldOutActive()) {
  let mount: string;
  try {
    mount = mountHeldOut(heldOut).mount;
  } catch (err) {
    console.error(`wirebench: ${(err as Error).message}`);
    process.exit(2);
  }
  const again = spawnSync(process.execPath, [`--conditions=${HELD_OUT_CONDITION}`, ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, WIREBENCH_TASKS: resolve(heldOut), [MOUNT_ENV]: mount },
  });
  process.exit(again.status ?? 1);
}

const program = new Command();
program
  .name("wirebench")
  .description("Synthetic vendor farm and grader for API-integration agents")
  .option("--tasks <dir>", "a folder of held-out task folders to add to the public ones (also $WIREBENCH_TASKS)")
  .showHelpAfterError()
  .exitOverride((err) => {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") process.exit(0);
    process.exit(2);
  });

program
  .command("serve")
  .description("run the local farm (what npm start runs)")
  .option("--port <port>", "TCP port (default: $PORT or 8787)")
  .option("--host <host>", "interface to bind", "127.0.0.1")
  .option("--persist <dir>", "state folder (default: .wirebench/state)")
  .option("--memory", "keep state in memory only")
  .option("--site <dir>", "a published site to show at / (default: demo/site when npm run demo made one)")
  .action((opts) => guarded(async () => (await import("./commands/serve.ts")).serve(opts)));

program
  .command("check")
  .description("validate vendor declarations (all of them, or the files given)")
  .argument("[files...]", "declaration modules to check")
  .option("--json", "print results as JSON")
  .action((files, opts) => guarded(async () => (await import("./commands/check.ts")).check(files, opts)));

program
  .command("docs")
  .description("write a vendor's documentation set (Markdown, HTML, OpenAPI) to a folder")
  .argument("<vendor>", "vendor id")
  .option("--profile <profile>", "true, stale or sparse", "true")
  .option("--out <dir>", "output folder")
  .option("--base-url <url>", "base URL shown in examples", "https://api.example.test")
  .option("--seed <n>", "seed of the example data", "1")
  .action((vendor, opts) => guarded(async () => (await import("./commands/docs.ts")).docs(vendor, opts)));

program
  .command("grade")
  .description("grade a connector folder against a fresh world of a task")
  .requiredOption("--task <task>", "task id (task-0001)")
  .requiredOption("--repo <dir>", "connector folder")
  .option("--seed <n>", "world seed (default: the task's)")
  .option("--time-limit <s>", "seconds one connector run may take (default: the task's)")
  .option("--trusted", "run the connector as plain host processes, not in the sandbox (for code you wrote yourself)")
  .option("--json", "print the verdict as JSON")
  .option("--farm <url>", "farm URL (default: reuse or start a local farm)")
  .action((opts) => guarded(async () => (await import("./commands/grade.ts")).grade(opts)));

program
  .command("validate")
  .description("prove tasks: empty, stub, gold (5 times) and naive probes against the bars")
  .argument("[tasks...]", "task ids (default: all)")
  .option("--json", "print the report as JSON")
  .option("--write-gold", "grade gold against itself and write each task's gold-manifest.json first")
  .option("--runs <n>", "gold runs for the flake gate", "5")
  .option("--other-seeds <n>", `instead of the probe bars: grade gold on the first n seeds of ${"7, 101, 90210, 4242, 31337, 65537"} other than each task's own; each must score 100`)
  .option("--jobs <n>", "gradings at a time (default: twice the cores)")
  .option("--farms <n>", "in-memory local farms to spread the gradings over (default: 2, or 1 on one core)")
  .option("--farm <url>", "farm URL (default: start in-memory local farms)")
  .action((tasks, opts) => guarded(async () => (await import("./commands/validate.ts")).validate(tasks, opts)));

program
  .command("mutants")
  .description("grade targeted mutants of each task's gold (realistic integration mistakes) and print the mutant-kill matrix")
  .argument("[tasks...]", "task ids (default: all)")
  .option("--json", "print the matrix as JSON")
  .option("--only <ids>", "comma-separated mutant ids to grade (default: all)")
  .option("--out <file>", "also write the JSON report to this file")
  .option("--jobs <n>", "gradings at a time (default: twice the cores)")
  .option("--farm <url>", "farm URL (default: start in-memory local farms)")
  .action((tasks, opts) => guarded(async () => (await import("./commands/mutants.ts")).mutants(tasks, opts)));

program
  .command("release")
  .description("write a re-skinned release of the public set: vendor names, prefixes, services and field names renamed by a map derived from the key")
  .option("--skin <key>", "the skin's key (the same key gives the same release)")
  .option("--out <dir>", "folder to write the release to (new or empty; outside the checkout or under .wirebench/)")
  .option("--map <file>", "also write the skin's map (original to new names, and what it kept) to this file, outside the release")
  .option("--json", "print the summary as JSON")
  .action((opts) => guarded(async () => (await import("./commands/release.ts")).release(opts)));

const agentOptions = (cmd: Command) =>
  execOptions(cmd)
    .requiredOption("--agent <lane>", "lane: claude-code, codex, opencode, direct, or exec (any command-line agent, see --cmd)")
    .option("--model <model>", "model name, or scripted:<gold|naive|nothing|cheat|file.json> (exec lane: a label)")
    .option("--trials <n>", "attempts per task", "1")
    .option("--seed <n>", "world seed (default: the task's)")
    .option("--time-limit <s>", "wall-clock seconds for the agent", "3600")
    .option("--out <dir>", "folder of attempt bundles", "runs")
    .option("--farm <url>", "farm URL (default: reuse or start a local farm)");

agentOptions(program.command("run").description("put an agent through a task in the sandbox, grade it, and write the attempt bundle"))
  .option("--task <task>", "task id (task-0001)")
  .option("--json", "print each attempt's summary.json")
  .action((opts) => guarded(async () => (await import("./commands/run.ts")).run(opts)));

agentOptions(program.command("run-all").description("a sweep of attempts, one JSON line each; finished attempts are skipped on a rerun"))
  .argument("[tasks...]", "task ids (default: all)")
  .option("--jobs <n>", "attempts at a time", "1")
  .option("--shard <i/n>", "run only slice i of n of the sweep (deterministic; publish merges the slices' folders)")
  .action((tasks, opts) => guarded(async () => (await import("./commands/run.ts")).runAll(tasks, opts)));

program
  .command("publish")
  .description("write the static site (data/v1/wirebench/ and pages) of folders of attempt bundles (one sweep, or the slices of a sharded one)")
  .option("--runs <dirs...>", "folders of attempt bundles, or folders of such folders (merged)", ["runs"])
  .option("--out <dir>", "output folder")
  .option("--release <name>", "release name", "dev")
  .option("--generated-at <iso>", "pin generated_at (byte-identical releases)")
  .option("--public-only", "keep held-out tasks out of every file: their attempts count only in a labelled aggregate (held_out)")
  .action((opts) => guarded(async () => (await import("./commands/publish.ts")).publishCommand(opts)));

program
  .command("regrade")
  .description("re-derive every verdict from published evidence, offline; exit 1 on any difference")
  .argument("<dir>", "a published site or a runs folder")
  .option("--json", "print the report as JSON")
  .action((dir, opts) => guarded(async () => (await import("./commands/publish.ts")).regradeCommand(dir, opts)));

program
  .command("compare")
  .description("paired bootstrap of two models (or model--lane rows) over the tasks both attempted")
  .argument("<a>")
  .argument("<b>")
  .option("--runs <dir>", "folder of attempt bundles (or a published site)", "runs")
  .option("--json", "print the comparison as JSON")
  .action((a, b, opts) => guarded(async () => (await import("./commands/publish.ts")).compareCommand(a, b, opts)));

program
  .command("bench")
  .description("measure the local farm (what npm run bench runs); writes bench-results/farm.json or --out")
  .option("--seconds <n>", "seconds per load measurement", "8")
  .option("--out <file>", "where the report goes (default: bench-results/farm.json)")
  .option("--date <YYYY-MM-DD>", "the date the report names (it reads no clock)")
  .action((opts) =>
    guarded(async () => {
      if (!/^[1-9]\d*$/.test(opts.seconds)) throw new UsageError(`--seconds must be a positive integer, got "${opts.seconds}"`);
      if (opts.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(opts.date)) throw new UsageError(`--date must be a date as YYYY-MM-DD, got "${opts.date}"`);
      process.env.BENCH_SECONDS = opts.seconds;
      if (opts.out !== undefined) process.env.BENCH_OUT = opts.out;
      if (opts.date !== undefined) process.env.BENCH_DATE = opts.date;
      await import("../bench/main.ts");
    }),
  );

registerSubmissionVerbs(program);

const task = program.command("task").description("author tasks");
task
  .command("init")
  .description("create declarations/tasks/<id>/ with a minimal task.ts and drive.ts, PROBLEM.md, repo/ and solutions/gold and naive (exit 2 when the id exists)")
  .argument("<id>", "task id (task-NNNN)")
  .option("--vendor <vendor>", "vendor of the task's one role", "staffline")
  .option("--root <dir>", "folder of task folders (default: declarations/tasks)")
  .action((id, opts) =>
    guarded(async () => {
      const { taskInit } = await import("./task-init/init.ts");
      const files = taskInit(id, opts);
      console.log(`created ${id}: ${files.join(", ")}`);
      console.log(`next: list it in declarations/tasks/index.ts (gold: null) and drives.ts, its primary mechanic in declarations/tasks/mechanics.ts; see declarations/tasks/README.md`);
    }),
  );

program
  .command("workspace")
  .description("write the workspace, environment and prompt an attempt's agent gets, against a fresh development world, for a harness of your own")
  .requiredOption("--task <task>", "task id (task-0001)")
  .requiredOption("--out <dir>", "folder to create (must not exist, or be empty)")
  .option("--seed <n>", "world seed (default: the task's)")
  .option("--workspace-path <path>", "path the agent will see the workspace at, named in prompt.md and OUTPUT_DIR (default: <out>/workspace; run's sandbox uses /workspace)")
  .option("--serve-port <port>", "port the agent's webhook listener will listen on (the world's webhook target)", "4000")
  .option("--json", "print the description as JSON")
  .option("--farm <url>", "farm URL (default: the local farm on $PORT or 8787)")
  .action((opts) => guarded(async () => (await import("./commands/workspace.ts")).workspaceCommand(opts)));

const world = program.command("world").description("manage worlds on a farm");
world
  .command("create")
  .description("create a seeded world and print its URLs and credentials")
  .option("--task <task>", "task whose vendors to seed")
  .option("--vendors <roles>", "role=vendor pairs, e.g. ats=staffline,hris=hirewire")
  .option("--seed <n>", "world seed", "1")
  .option("--checkpoint <n>", "starting checkpoint", "0")
  .option("--json", "print the creation response as JSON")
  .option("--farm <url>", "farm URL (default: the local farm on $PORT or 8787)")
  .action((opts) => guarded(async () => (await import("./commands/world-create.ts")).worldCreate(opts)));

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`wirebench: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
