/**
 * `apply-rates`: Finance's approved rate changes onto PayGrade, each once.
 * Every row is decided against PayGrade as it stands, and each change is sent
 * under a request_id made from the change itself, the same on every attempt and
 * every run: a lost answer retried, or a rerun that reads an assignment from the
 * bureau's cache as it was before the change, sends the same request_id, which
 * PayGrade replays instead of applying again. A row PayGrade is read to match
 * already is not written at all.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Config } from "./config.ts";
import { type Fields, GatewayFault, PayGrade, fields } from "./paygrade.ts";
import { writeJson } from "./mirror.ts";

const INPUT = "input/rate-changes.csv";
const RESULT = "rate_changes.json";

type Outcome = "applied" | "deleted" | "unknown" | "not_open" | "negative_margin" | "invalid";

/** RFC 4180 fields, quotes and doubled quotes included. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** PayGrade's assignment number for a hand-typed one: case, spaces and leading zeros do not matter. */
export function assignmentId(typed: string): string | null {
  const m = typed.trim().match(/^asg[_-]?0*(\d+)$/i) ?? typed.trim().match(/^0*(\d+)$/);
  return m ? `asg_${m[1].padStart(6, "0")}` : null;
}

/** Dollars as typed ("19.99") to whole cents, without floating-point loss. */
export function cents(dollars: string): number | null {
  const m = dollars
    .trim()
    .replace(/^\$/, "")
    .match(/^(\d+)(?:\.(\d{1,2}))?$/);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;
}

async function deletedAssignments(pg: PayGrade): Promise<Set<string>> {
  const gone = await pg.list("ListDeletions", "deletion");
  return new Set(gone.filter((d) => d.record_type === "assignment").map((d) => String(d.id)));
}

async function current(pg: PayGrade, id: string): Promise<Fields | null> {
  try {
    return fields((await pg.call("GetAssignment", { assignment_id: id })).match(/<assignment>([\s\S]*?)<\/assignment>/)?.[1] ?? "");
  } catch (err) {
    if (err instanceof GatewayFault && err.code === "not_found") return null;
    throw err;
  }
}

export async function applyRates(config: Config): Promise<void> {
  const pg = new PayGrade(config);
  const [header, ...lines] = parseCsv(readFileSync(INPUT, "utf8"));
  const col = (name: string) => header.indexOf(name);
  let deleted: Set<string> | null = null;
  const results: { line: number; assignment_id: string | null; outcome: Outcome }[] = [];
  for (const [i, cells] of lines.entries()) {
    if (cells.every((c) => c.trim() === "")) continue;
    const line = i + 2;
    const id = assignmentId(cells[col("assignment")] ?? "");
    const pay = cents(cells[col("new_pay_rate")] ?? "");
    const bill = cents(cells[col("new_bill_rate")] ?? "");
    if (id === null || pay === null || bill === null) {
      results.push({ line, assignment_id: id, outcome: "invalid" });
      continue;
    }
    const now = await current(pg, id);
    if (now === null) {
      deleted ??= await deletedAssignments(pg);
      results.push({ line, assignment_id: id, outcome: deleted.has(id) ? "deleted" : "unknown" });
      continue;
    }
    if (now.state !== "open") results.push({ line, assignment_id: id, outcome: "not_open" });
    else if (pay > bill) results.push({ line, assignment_id: id, outcome: "negative_margin" });
    else {
      if (Number(now.pay_rate) !== pay || Number(now.bill_rate) !== bill) {
        const requestId = createHash("sha256").update(`rate-change|${id}|${pay}|${bill}`).digest("hex").slice(0, 32);
        await pg.call("UpdateAssignment", { assignment_id: id, pay_rate: pay, bill_rate: bill, request_id: requestId });
      }
      results.push({ line, assignment_id: id, outcome: "applied" });
    }
  }
  writeJson(config.outputDir, RESULT, results);
  console.log(`apply-rates: ${results.filter((r) => r.outcome === "applied").length} of ${results.length} rows applied (${pg.calls} calls)`);
}
