/**
 * @module publish
 * `wirebench publish`: a static site from attempt bundles (one runs folder, or
 * the merged folders of a sharded sweep's slices). Data under
 * `data/v1/wirebench/` (manifest, leaderboard, matrix, models, tasks, and
 * every attempt's files), and HTML pages that carry their data inline, so the
 * site works from any static host or opened from disk. The same runs give
 * the same bytes (keys sorted, no clock but `generated_at`).
 */
import type { TaskMatrix } from "../harness/mutants/matrix.ts";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { TASKS } from "../../declarations/tasks/index.ts";
import { projectRoot } from "../farm/paths.ts";
import { taskDir } from "../harness/workspace.ts";
import { compareRows, leaderboard, matrix, rowId, slug, suiteStats, taskView } from "./aggregate.ts";
import { loadAttempts, SCORER, type PublishedAttempt } from "./runs.ts";
import { registeredSecrets, scrubRequestRows, scrubText } from "./scrub.ts";
import { stableJson } from "./stable-json.ts";

export const DATA_PATH = join("data", "v1", "wirebench");
const ATTEMPT_FILES = ["summary.json", "verdict.json", "trajectory.json", "trajectory.atif.json", "vendor-requests.json", "evidence.json", "patch.diff", "transcript.jsonl", "problem.md"] as const;

export interface PublishOptions {
  /** Runs folders merged into one release (the slices of a sharded sweep; see mergedBundleDirs). */
  runsDirs: string[];
  outDir: string;
  release: string;
  /** ISO time written as `generated_at` (default: now). */
  generatedAt?: string;
  /**
   * Keep held-out tasks (any task without a folder in declarations/tasks) out of every file:
   * their attempts count only in the manifest's and leaderboard's `held_out` aggregate.
   */
  publicOnly?: boolean;
}

export interface PublishReport {
  attempts: number;
  rows: number;
  files: number;
  bytes: number;
}

/** A release refused because a provider secret is in it. */
export class SecretInRelease extends Error {}

const here = dirname(fileURLToPath(import.meta.url));

function packageDir(require: NodeRequire, name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}

function assetSources(): Record<string, string> {
  const require = createRequire(import.meta.url);
  return {
    // chart.js exports no subpaths: find its folder from the package file.
    "chart.umd.min.js": join(packageDir(require, "chart.js"), "dist", "chart.umd.min.js"),
    "chartjs-chart-matrix.min.js": join(dirname(require.resolve("chartjs-chart-matrix")), "chartjs-chart-matrix.min.js"),
    "app.js": join(here, "site", "app.js"),
    "style.css": join(here, "site", "style.css"),
  };
}

export function publish(o: PublishOptions): PublishReport {
  const loaded = loadAttempts(o.runsDirs);
  // Public: a task of the repository's registry; held out: a mounted one, or one no registry here knows.
  const isPublic = (task: string) => Object.hasOwn(TASKS, task) && !TASKS[task].heldOut;
  const attempts = o.publicOnly ? loaded.filter((a) => isPublic(a.summary.task)) : loaded;
  const heldOut = o.publicOnly ? heldOutAggregate(loaded.filter((a) => !isPublic(a.summary.task) && !a.selfReported)) : null;
  const secrets = registeredSecrets();
  const out = o.outDir;
  rmSync(out, { recursive: true, force: true });
  const data = join(out, DATA_PATH);
  let files = 0;
  let bytes = 0;
  /** Writes a file of the release (gzipped when asked); a registered secret in its text refuses the release. */
  const write = (file: string, text: string, opts: { gzip?: boolean } = {}) => {
    for (const s of secrets) if (text.includes(s)) throw new SecretInRelease(`a registered provider secret is in ${relative(out, file)}: the release is refused`);
    const data = opts.gzip ? gzipSync(text) : text;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data);
    files += 1;
    bytes += typeof data === "string" ? Buffer.byteLength(data) : data.length;
  };
  const writeJson = (file: string, value: unknown) => write(file, scrubText(stableJson(value)));

  // Self-reported runs (a participant's own harness ran the connector) are published as attempts but never ranked.
  const ranked = attempts.filter((a) => !a.selfReported);
  const board = leaderboard(ranked);
  const grid = matrix(ranked);
  const suite = suiteStats(ranked);
  const tasks = [...new Set(attempts.map((a) => a.summary.task))].sort();
  const hashes = (key: "task_tree" | "harness") => [...new Set(attempts.map((a) => a.summary.hashes[key]))].sort();
  const manifest = {
    release: o.release,
    generated_at: o.generatedAt ?? new Date().toISOString(),
    scorer: SCORER,
    models: [...new Set(attempts.map((a) => a.summary.model))].sort(),
    lanes: [...new Set(attempts.map((a) => a.summary.lane))].sort(),
    tasks,
    counts: {
      attempts: attempts.length,
      graded: attempts.filter((a) => a.verdict).length,
      flagged: attempts.filter((a) => a.flag).length,
      self_reported: attempts.length - ranked.length,
      // Graded predictions (`wirebench grade-all`): patches of agents that ran in a harness of their own.
      external: attempts.filter((a) => (a.summary as { harness?: string }).harness === "external").length,
      rows: board.length,
    },
    task_tree_hashes: Object.fromEntries(tasks.map((t) => [t, [...new Set(attempts.filter((a) => a.summary.task === t).map((a) => a.summary.hashes.task_tree))].sort()])),
    harness_hashes: hashes("harness"),
    wirebench_versions: [...new Set(attempts.map((a) => a.summary.versions.wirebench))].sort(),
    ...(heldOut ? { held_out: heldOut } : {}),
  };
  writeJson(join(data, "manifest.json"), manifest);
  writeJson(join(data, "leaderboard.json"), { release: o.release, scorer: SCORER, rows: board, suite, ...(heldOut ? { held_out: heldOut } : {}) });
  writeJson(join(data, "matrix.json"), grid);

  const comparisons = board.flatMap((a) => board.filter((b) => b.id !== a.id).map((b) => compareRows(ranked, a.id, b.id)));
  for (const model of manifest.models) {
    const rows = board.filter((r) => r.model === model);
    writeJson(join(data, "models", `${slug(model)}.json`), {
      model,
      rows,
      comparisons: comparisons.filter((c) => rows.some((r) => r.id === c.a)),
      tasks: Object.fromEntries(grid.rows.filter((r) => r.model === model).map((r) => [r.lane, r.cells])),
      attempts: attempts.filter((a) => a.summary.model === model).map(attemptRef),
    });
  }
  const mutantRows = mutantMatrix();
  const taskViews = tasks.map((t) => taskView(t, ranked, ticketOf(t), mutantRows.get(t) ?? null));
  for (const v of taskViews) writeJson(join(data, "tasks", `${v.task}.json`), v);

  for (const a of attempts) {
    const dir = join(data, "attempts", attemptPath(a));
    for (const name of ATTEMPT_FILES) {
      const src = join(a.dir, name);
      if (!existsSync(src)) continue;
      let text = readFileSync(src, "utf8");
      if (name === "summary.json") text = stableJson({ ...JSON.parse(text), score: a.score, solved: a.solved, flag: a.flag, scorer: SCORER });
      else if (name === "evidence.json") {
        // The sealed evidence is the bulk of a release (snapshots of every record): gzip, deterministically.
        write(join(dir, "evidence.json.gz"), scrubText(stableJson(scrubRequestRows(JSON.parse(text)), 0)), { gzip: true });
        continue;
      } else if (name === "vendor-requests.json") text = stableJson(scrubRequestRows(JSON.parse(text)));
      else if (name.endsWith(".json")) text = stableJson(JSON.parse(text));
      write(join(dir, name), scrubText(text));
    }
  }

  // Pages.
  const sources = assetSources();
  mkdirSync(join(out, "assets"), { recursive: true });
  for (const [name, src] of Object.entries(sources)) {
    copyFileSync(src, join(out, "assets", name));
    files += 1;
  }
  const page = (file: string, title: string, kind: string, payload: unknown) => {
    const root = relative(dirname(join(out, file)), out) || ".";
    const json = scrubText(JSON.stringify(payload)).replace(/</g, "\\u003c");
    write(
      join(out, file),
      `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)} · wirebench</title>\n<link rel="icon" href="data:,">\n<link rel="stylesheet" href="${root}/assets/style.css">\n</head>\n<body data-page="${kind}" data-root="${root}">\n<a class="skip" href="#main">Skip to content</a>\n<header role="banner"><a class="brand" href="${root}/index.html">wirebench</a> <span class="release">${escapeHtml(o.release)}</span><nav aria-label="Site"><a href="${root}/index.html">Leaderboard</a></nav></header>\n<main id="main" tabindex="-1"><h1>${escapeHtml(title)}</h1><p class="loading">Loading…</p></main>\n<footer role="contentinfo">Scores recomputed from verdicts with ${SCORER}. Data: <a href="${root}/${DATA_PATH}/manifest.json">${DATA_PATH}/</a></footer>\n<script id="page-data" type="application/json">${json}</script>\n<script src="${root}/assets/chart.umd.min.js"></script>\n<script src="${root}/assets/chartjs-chart-matrix.min.js"></script>\n<script src="${root}/assets/app.js"></script>\n</body>\n</html>\n`,
    );
  };
  page("index.html", `Leaderboard ${o.release}`, "leaderboard", { manifest, rows: board, matrix: grid, suite, tasks: Object.fromEntries(tasks.map((t) => [t, taskMeta(t)])) });
  for (const v of taskViews) page(join("tasks", `${v.task}.html`), `${v.task}: ${v.title}`, "task", v);
  for (const model of manifest.models)
    page(join("models", `${slug(model)}.html`), model, "model", {
      model,
      rows: board.filter((r) => r.model === model),
      comparisons: comparisons.filter((c) => board.some((r) => r.model === model && r.id === c.a)),
    });
  for (const a of attempts) {
    const dir = join(a.dir);
    const read = (name: string) => (existsSync(join(dir, name)) ? JSON.parse(readFileSync(join(dir, name), "utf8")) : null);
    page(join("attempts", `${attemptPath(a)}.html`), a.summary.attempt, "attempt", {
      summary: { ...a.summary, score: a.score, solved: a.solved, flag: a.flag },
      verdict: a.verdict,
      trajectory: read("trajectory.json"),
      requests: scrubRequestRows(read("vendor-requests.json")),
      data: `${DATA_PATH}/attempts/${attemptPath(a)}`,
    });
  }
  return { attempts: attempts.length, rows: board.length, files, bytes };
}

function attemptPath(a: PublishedAttempt): string {
  return `${slug(a.summary.model)}/${a.summary.task}/${slug(a.summary.attempt)}`;
}

function attemptRef(a: PublishedAttempt) {
  return {
    attempt: a.summary.attempt,
    task: a.summary.task,
    lane: a.summary.lane,
    trial: a.summary.trial,
    score: a.score,
    solved: a.solved,
    flag: a.flag,
    path: attemptPath(a),
    row: rowId(a.summary.model, a.summary.lane),
  };
}

/**
 * Aggregate scores on held-out tasks, one row per model and lane: nothing that names a
 * task, quotes a ticket or shows an attempt, and labelled as such.
 */
function heldOutAggregate(attempts: PublishedAttempt[]) {
  const rows = [...new Set(attempts.map((a) => rowId(a.summary.model, a.summary.lane)))].sort().map((id) => {
    const mine = attempts.filter((a) => rowId(a.summary.model, a.summary.lane) === id);
    return {
      id,
      model: mine[0].summary.model,
      lane: mine[0].summary.lane,
      attempts: mine.length,
      mean_score: Math.round((mine.reduce((s, a) => s + a.score, 0) / mine.length) * 100) / 100,
      solve_rate: Math.round((mine.filter((a) => a.solved).length / mine.length) * 10000) / 10000,
    };
  });
  return {
    label: "Aggregate scores on held-out tasks only: their tasks, tickets, checks and attempts are not published.",
    tasks: new Set(attempts.map((a) => a.summary.task)).size,
    attempts: attempts.length,
    rows,
  };
}

/** Each task's row of the committed mutant-kill matrix (bench-results/mutants.json), when it has been run. */
function mutantMatrix(): Map<string, TaskMatrix> {
  const file = join(projectRoot(), "bench-results", "mutants.json");
  if (!existsSync(file)) return new Map();
  const report = JSON.parse(readFileSync(file, "utf8")) as { tasks: TaskMatrix[] };
  return new Map(report.tasks.map((t) => [t.task, t]));
}

function ticketOf(task: string): string {
  const file = join(taskDir(task), "PROBLEM.md");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

function taskMeta(id: string) {
  const t = TASKS[id]?.task;
  return t ? { title: t.title, kind: t.kind, surfaces: t.surfaces, docs_profile: t.docsProfile } : null;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
