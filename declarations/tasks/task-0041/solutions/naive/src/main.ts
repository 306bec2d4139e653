import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { csvRecords } from "./csv.ts";

// Written from the docs and the file as it looks: ids as the agency wrote them, the first row of a
// person kept, a failed create retried as it was sent.

const cfg = loadConfig();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(url: string, init: RequestInit): Promise<{ status: number; body: any }> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, init);
    if (res.status >= 500 && attempt < 4) {
      await sleep(50);
      continue;
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
}

const sw = (path: string) => call(`${cfg.sourcewell.baseUrl}${path}`, { headers: { "X-SW-Key": cfg.sourcewell.apiKey } });

async function main(): Promise<void> {
  const rows = csvRecords(readFileSync(join("input", "harbour-signups.csv"), "utf8"));
  const profiles: any[] = [];
  let next: string | undefined = "/v3/talent?lim=100";
  while (next) {
    const { body } = await sw(next.replace(cfg.sourcewell.baseUrl, ""));
    profiles.push(...body.d);
    next = body.d.length ? body._links?.next?.href : undefined;
  }
  const created = new Map<string, unknown>();
  const report = [];
  for (const [i, r] of rows.entries()) {
    const id = r.sourcewell_id.trim();
    const p = id ? profiles.find((x) => x.id === id) : profiles.find((x) => x.em.toLowerCase() === r.email.trim().toLowerCase());
    if (!p) {
      report.push({ row: i + 1, sourcewell_id: null, worker_id: null });
      continue;
    }
    if (!created.has(p.id)) {
      const { status, body } = await call(`${cfg.crewcall.baseUrl}/partner/v1/workers`, {
        method: "POST",
        headers: { Authorization: `Token ${cfg.crewcall.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ first_name: p.fn, last_name: p.ln, email: p.em, ...(p.ph ? { mobile: p.ph } : {}), home_zone: r.zone, primary_role: r.role.toLowerCase().replace(/ /g, "_") }),
      });
      if (status >= 300) throw new Error(`create failed: ${status} ${JSON.stringify(body)}`);
      created.set(p.id, body.id);
    }
    report.push({ row: i + 1, sourcewell_id: p.id, worker_id: created.get(p.id) });
  }
  mkdirSync(cfg.outputDir, { recursive: true });
  writeFileSync(join(cfg.outputDir, "import_report.json"), JSON.stringify(report, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
