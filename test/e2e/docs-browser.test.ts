import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { startServe } from "../node/run-cli.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = join(projectRoot(), "test-artifacts");
const ADMIN = "e2e-admin-token";
const MISSING = `chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary`;

/** Launches the system chromium headless; never downloads a browser. */
function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(MISSING);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    timeout: 60_000,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

describe("generated documentation in headless Chromium", () => {
  let farm: Awaited<ReturnType<typeof startServe>> | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(MISSING);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    farm = await startServe([], { WIREBENCH_ADMIN_TOKEN: ADMIN });
  });
  afterAll(() => {
    farm?.proc.kill("SIGTERM");
  });

  describe.each([
    { vendor: "staffline", docsProfile: "true" },
    { vendor: "hirewire", docsProfile: "stale" },
  ])("$vendor ($docsProfile docs)", ({ vendor, docsProfile }) => {
    let browser: Browser | undefined;
    let page: Page;
    let baseUrl: string;
    const errors: string[] = [];

    beforeAll(async () => {
      const res = await fetch(`${farm!.url}/v1/worlds`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify({ vendors: { ats: vendor }, seed: 1, docsProfile }),
      });
      const text = await res.text();
      expect(res.status, text).toBe(201);
      baseUrl = (JSON.parse(text) as { vendors: { ats: { baseUrl: string } } }).vendors.ats.baseUrl;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`console: ${m.text()} (${m.location().url})`);
      });
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("shows the navigation on the index page, and every nav link answers 200", async () => {
      errors.length = 0;
      const res = await page.goto(`${baseUrl}/_docs/`);
      expect(res?.status()).toBe(200);
      const nav = page.getByRole("navigation", { name: "Documentation" });
      await expect.poll(() => nav.isVisible()).toBe(true);
      const links = nav.getByRole("link");
      expect(await links.count()).toBeGreaterThanOrEqual(8);
      await page.screenshot({ path: join(ARTIFACTS, `docs-${vendor}-index.png`), fullPage: true });

      const hrefs = await Promise.all((await links.all()).map(async (a) => new URL((await a.getAttribute("href")) ?? "", page.url()).href));
      const statuses = await Promise.all([...new Set(hrefs)].map(async (href) => [href, (await fetch(href)).status] as const));
      expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
      expect(errors).toEqual([]);
    });

    it("opens the candidates resource page from the navigation", async () => {
      errors.length = 0;
      await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Candidates", exact: true }).click();
      await page.waitForURL(/resource-candidates\.html$/);
      expect(page.url()).toMatch(/resource-candidates\.html$/);
      await expect.poll(() => page.locator("main h1").first().textContent()).toBe("Candidates");
      expect(await page.locator("h1").count()).toBe(1);
      expect(await page.locator("main table").first().isVisible()).toBe(true);
      const canary = await page.locator('meta[name="wirebench-canary"]').getAttribute("content");
      expect(canary).toMatch(/^WIREBENCH-CANARY-/);
      expect(await page.locator("main").innerText()).toContain(canary!);
      await page.screenshot({ path: join(ARTIFACTS, `docs-${vendor}-candidates.png`), fullPage: true });
      expect(errors).toEqual([]);
    });
  });
});
