import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScreeningXml, XmlCallError, recordFields } from "./screening-xml.ts";

/** Report fields Vettly documents as integers; ScreeningXml sends every value as text. */
const INTEGER_FIELDS = new Set(["checks_included"]);

function required(name: string): string {
  const v = process.env[name];
  if (!v) {
    console.error(`missing environment variable ${name}`);
    process.exit(2);
  }
  return v;
}

/** Vettly's form of a report id as the file typed it (`rpt_` and six digits, lower case); anything else as written. */
function vettlyId(typed: string): string {
  const m = /^rpt_(\d+)$/i.exec(typed.trim());
  return m ? `rpt_${String(Number(m[1])).padStart(6, "0")}` : typed.trim();
}

/** `report_id,matter` lines, one per report however often and however the file wrote its id; a matter may be quoted. */
function readHolds(path: string): { report_id: string; matter: string }[] {
  const lines = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  const out = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const m = /^\s*([^,]+?)\s*,\s*(?:"((?:[^"]|"")*)"|(.*))\s*$/.exec(line);
    if (!m) throw new Error(`holds.csv: cannot read line "${line}"`);
    const id = vettlyId(m[1]);
    if (!out.has(id)) out.set(id, (m[2] ?? m[3] ?? "").replace(/""/g, '"'));
  }
  return [...out].map(([report_id, matter]) => ({ report_id, matter }));
}

function typed(fields: Record<string, string | null>): Record<string, unknown> {
  const { id: _id, ...rest } = fields;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v !== null && INTEGER_FIELDS.has(k) ? Number(v) : v]));
}

async function archive(): Promise<void> {
  const outputDir = process.env.OUTPUT_DIR ?? "output";
  const client = new ScreeningXml({ baseUrl: required("VETTLY_BASE_URL").replace(/\/$/, ""), clientId: required("VETTLY_CLIENT_ID"), clientSecret: required("VETTLY_CLIENT_SECRET") });
  const holds = readHolds(join(import.meta.dirname, "..", "holds.csv"));
  const lines: string[] = [];
  let found = 0;
  for (const h of holds) {
    try {
      const inner = await client.call("ReportDetail", { id: h.report_id });
      const record = /<report>([\s\S]*?)<\/report>/.exec(inner)?.[1];
      if (record === undefined) throw new Error(`ReportDetail ${h.report_id}: no <report> in the answer`);
      lines.push(JSON.stringify({ report_id: h.report_id, matter: h.matter, status: "archived", report: typed(recordFields(record)) }));
      found += 1;
    } catch (err) {
      if (!(err instanceof XmlCallError) || err.code !== "not_found") throw err;
      lines.push(JSON.stringify({ report_id: h.report_id, matter: h.matter, status: "not_found", report: null }));
    }
  }
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(join(outputDir, "archive.jsonl"), `${lines.join("\n")}\n`);
  console.error(`archive: ${found} reports archived, ${holds.length - found} not found`);
}

if (process.argv[2] !== "archive") {
  console.error("usage: node src/main.ts archive");
  process.exit(2);
}
archive().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
