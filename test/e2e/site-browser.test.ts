import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { runCli, startServe } from "../node/run-cli.ts";

// Page functions run in the browser; the type check knows no DOM here.
declare const document: any;
declare const window: any;
declare const location: any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = join(projectRoot(), "test-artifacts");
const ENV = { WIREBENCH_ADMIN_TOKEN: "e2e-site-admin" };
const runs = mkdtempSync(join(tmpdir(), "wb-e2e-runs-"));
const site = mkdtempSync(join(tmpdir(), "wb-e2e-site-"));
const BIG = 5000;
let browser: Browser;
let bigPage = "";

/** A copy of a real gold bundle whose trajectory is stretched to 5,000 events (the viewer's load test). */
function stretchedBundle(): void {
  const source = readdirSync(runs).find((d) => d.includes("scripted_gold") && d.includes("task-0001"))!;
  const id = `${source}-stretched`;
  const dir = join(runs, id);
  cpSync(join(runs, source), dir, { recursive: true });
  const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
  writeFileSync(join(dir, "summary.json"), JSON.stringify({ ...summary, attempt: id, trial: 99 }));
  const t = JSON.parse(readFileSync(join(dir, "trajectory.json"), "utf8"));
  const calls = t.events.filter((e: { kind: string }) => e.kind === "tool_call");
  const events = [...t.events.slice(0, 2)];
  while (events.length < BIG) events.push({ ...calls[events.length % calls.length], i: events.length, t: events.length / 10 });
  writeFileSync(join(dir, "trajectory.json"), JSON.stringify({ ...t, events }));
  bigPage = join(site, "attempts", "scripted_gold", "task-0001", `${id}.html`);
}

async function open(page: Page, file: string): Promise<{ errors: string[]; ms: number }> {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  const started = Date.now();
  await page.goto(pathToFileURL(file).href + (file.includes("#") ? "" : ""));
  await page.waitForFunction(() => !document.querySelector(".loading"));
  return { errors, ms: Date.now() - started };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const farm = await startServe([], ENV);
  try {
    for (const model of ["scripted:gold", "scripted:naive", "scripted:nothing"]) {
      const r = runCli(["run-all", "task-0001", "task-0004", "--agent", "direct", "--model", model, "--trials", "2", "--jobs", "2", "--farm", farm.url, "--out", runs], ENV, 300_000);
      if (r.code !== 0) throw new Error(r.stderr);
    }
  } finally {
    farm.proc.kill("SIGTERM");
  }
  stretchedBundle();
  const pub = runCli(["publish", "--runs", runs, "--out", site, "--release", "e2e", "--generated-at", "2026-12-01T00:00:00Z"], ENV);
  if (pub.code !== 0) throw new Error(pub.stderr);
  console.log(pub.stdout.trim());
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}, 600_000);
afterAll(async () => {
  await browser?.close();
});

describe("the published site in headless Chromium", () => {
  it("renders every page with zero console errors, opened from disk", async () => {
    const pages = [
      join(site, "index.html"),
      ...readdirSync(site, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith(".html") && join(e.parentPath, e.name) !== join(site, "index.html"))
        .map((e) => join(e.parentPath, e.name)),
    ];
    expect(pages.length).toBeGreaterThan(14);
    const page = await browser.newPage();
    for (const file of pages) {
      const { errors } = await open(page, file);
      expect(errors, file).toEqual([]);
      page.removeAllListeners("console");
      page.removeAllListeners("pageerror");
    }
    await page.close();
  });

  it("ranks gold first, draws the intervals and the heatmap, sorts by keyboard and filters", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const { ms } = await open(page, join(site, "index.html"));
    console.log(`leaderboard loaded in ${ms} ms`);
    const firstModel = () => page.locator("tbody tr").first().locator("td").nth(1).innerText();
    expect(await firstModel()).toBe("scripted:gold");
    const charts = await page.evaluate(() =>
      [...document.querySelectorAll("canvas")].map((c) => (window as any).Chart.getChart(c)?.config.type ?? (window as any).Chart.getChart(c)?.config._config?.type),
    );
    expect(charts).toContain("matrix");
    expect(await page.evaluate(() => [...document.querySelectorAll("canvas")].every((c) => c.width > 0 && c.height > 0))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "site-leaderboard.png"), fullPage: true });
    const rank = page.getByRole("button", { name: "Rank" });
    await rank.focus();
    await page.keyboard.press("Enter");
    expect(await firstModel()).not.toBe("scripted:gold");
    await page.keyboard.press("Enter");
    expect(await firstModel()).toBe("scripted:gold");
    await page.getByLabel("Surface").selectOption("polling");
    expect(await page.locator("tbody tr").first().locator("td").nth(3).innerText()).toBe("100.0");
    await page.close();
  });

  it("shows each check's basis beside its pass rates on a task page", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const { errors } = await open(page, join(site, "tasks", "task-0001.html"));
    expect(errors).toEqual([]);
    const table = page.locator("section", { has: page.locator("h2", { hasText: "Checks" }) }).locator("table");
    const headers = await table.locator("thead th").allInnerTexts();
    const basisAt = headers.findIndex((t) => t.startsWith("Basis"));
    expect(basisAt).toBeGreaterThan(-1);
    expect(headers.findIndex((t) => t.startsWith("Passes"))).toBe(basisAt + 1);
    const row = table.locator("tbody tr", { has: page.locator("td", { hasText: /^deletes_from_tombstones_applied/ }) });
    expect(await row.locator("td").nth(basisAt).innerText()).toContain("A record deleted in StaffLine stays in the mirror with `is_deleted: true`.");
    const bases = await table.locator(`tbody tr td:nth-child(${basisAt + 1})`).allInnerTexts();
    expect(bases.every((b) => /^(ticket|vendor)\s*\S/.test(b))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "site-task-checks.png"), fullPage: true });
    await page.close();
  });

  it("reads on a phone width without the page scrolling sideways", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await open(page, join(site, "index.html"));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(376);
    expect(await page.locator("header[role=banner], main, footer[role=contentinfo]").count()).toBe(3);
    await page.screenshot({ path: join(ARTIFACTS, "site-leaderboard-phone.png"), fullPage: true });
    await page.close();
  });

  it("loads a 5,000-event trajectory quickly, and #e42 scrolls to its event", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const started = Date.now();
    await page.goto(`${pathToFileURL(bigPage).href}#e42`);
    await page.waitForFunction(() => !document.querySelector(".loading"));
    const ms = Date.now() - started;
    console.log(`${BIG}-event trajectory loaded in ${ms} ms`);
    expect(errors).toEqual([]);
    expect(await page.locator("li.event").count()).toBe(BIG);
    const box = await page.locator("#e42").boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(-5);
    expect(box!.y).toBeLessThan(900);
    expect(await page.evaluate(() => document.querySelector(":target")?.id)).toBe("e42");
    expect(ms).toBeLessThan(10_000);
    await page.screenshot({ path: join(ARTIFACTS, "site-trajectory.png") });
    await page.close();
  });

  it("is served by the farm at / to a browser (and under /runs/), while programs still get the farm's description", async () => {
    const farm = await startServe(["--site", site], ENV);
    try {
      const described = await (await fetch(`${farm.url}/`)).json();
      expect(described).toMatchObject({ service: "wirebench farm", site: "/" });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      await page.goto(`${farm.url}/`);
      await page.waitForFunction(() => !document.querySelector(".loading"));
      expect(await page.locator("tbody tr").first().locator("td").nth(1).innerText()).toBe("scripted:gold");
      await page.goto(`${farm.url}/runs/tasks/task-0001.html`);
      await page.waitForFunction(() => !document.querySelector(".loading"));
      expect(await page.locator("h1").innerText()).toContain("task-0001");
      expect(errors).toEqual([]);
      expect((await fetch(`${farm.url}/..%2f..%2fetc/passwd`)).status).toBe(404);
      expect((await fetch(`${farm.url}/%E0%A4%A`)).status).toBe(404);
      await page.close();
    } finally {
      farm.proc.kill("SIGTERM");
    }
  });

  it("shows each tool call's vendor requests and links failed checks to the requests that decided them", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const naive = readdirSync(join(site, "attempts", "scripted_naive", "task-0004"))[0];
    await open(page, join(site, "attempts", "scripted_naive", "task-0004", naive));
    await page.screenshot({ path: join(ARTIFACTS, "site-attempt-naive.png"), fullPage: false });
    expect(await page.getByText("FAIL").count()).toBeGreaterThan(0);
    const link = page.locator("section a[href^='#req-']").first();
    if ((await link.count()) > 0) {
      const target = (await link.getAttribute("href"))!;
      await link.click();
      expect(await page.evaluate(() => location.hash)).toBe(target);
    }
    const gold = readdirSync(join(site, "attempts", "scripted_gold", "task-0001")).find((f) => !f.includes("stretched"))!;
    await open(page, join(site, "attempts", "scripted_gold", "task-0001", gold));
    expect(await page.getByText(/vendor requests made during this call \(\d+\)/).count()).toBe(1);
    await page.close();
  });

  it("lists the checks of gold's a run never recorded as failed, naming the scenario whose run stopped them", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const nothing = readdirSync(join(site, "attempts", "scripted_nothing", "task-0001"))[0];
    const { errors } = await open(page, join(site, "attempts", "scripted_nothing", "task-0001", nothing));
    await page.screenshot({ path: join(ARTIFACTS, "site-attempt-unrecorded.png"), fullPage: false });
    const item = page.locator("li", { hasText: "l1 incremental_candidates_match (mandatory): not recorded: scenario incremental_catch_up's run `" });
    expect(await item.count()).toBe(1);
    expect(await item.innerText()).toMatch(
      /^FAIL l1 incremental_candidates_match \(mandatory\): not recorded: scenario incremental_catch_up's run `(backfill|incremental)` (exited \d+|timed out|was killed) before it could be judged/,
    );
    expect(await page.getByText(/^FAIL .*: not recorded: /).count()).toBeGreaterThan(5);
    expect(errors).toEqual([]);
    await page.close();
  });
});
