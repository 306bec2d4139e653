import { z } from "zod";
import { defineTask, type JudgeContext } from "../../schema/task.ts";
import { jsonLines } from "../../schema/output-contract.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { holds } from "./holds.ts";

export const ROLE = "screening";
/** Faults the scenario arms (declared in declarations/vendors/vettly.ts). */
export const TOKENS_REVOKED = "vt-tokens-revoked";
/** A night's worth of token time in one run: 150 s every 100 requests. */
export const TOKEN_CLOCK = "vt-token-clock-150s";
const FILE = "archive.jsonl";

const ArchiveRow = z.looseObject({
  report_id: z.string(),
  matter: z.string(),
  status: z.enum(["archived", "not_found"]),
  report: z.record(z.string(), z.unknown()).nullable(),
});
type ArchiveRow = z.infer<typeof ArchiveRow>;

const EXIT_OK = "`node src/main.ts archive` exits 0 once every hold in the file has its line in `archive.jsonl`.";
const ONE_LINE = "One line per report held in `holds.csv`, no more, no fewer";
const VETTLY_ID = "`report_id` is the report's id as Vettly writes it (`rpt_` and six digits)";
const AS_VETTLY = "`report` holds every field ScreeningXml returns for the report except its `id`, with the types Vettly documents";
const NOT_FOUND = 'An id Vettly does not know is recorded with `status: "not_found"` and `report: null`';
const XML_ONLY = "Read the reports through ScreeningXml";

function asInstant(v: unknown): unknown {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : ms;
}

const canonical = (r: Record<string, unknown>) =>
  JSON.stringify(
    Object.entries(r)
      .map(([k, v]) => [k, asInstant(v)])
      .sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)),
  );

/** The vendor's REST record paths (lists and single reads), which this task's reads must not use. */
function restPaths(ctx: JudgeContext): RegExp[] {
  const vendor = ctx.vendors[ROLE];
  return vendor.resources.flatMap((r) => [r.list, r.get].filter((p): p is string => !!p)).map((p) => new RegExp(`^${p.replace(/:[A-Za-z]+/g, "[^/]+")}$`));
}

export default defineTask({
  id: "task-0034",
  title: "Harrowgate Health litigation-hold archive: 700 Vettly reports from a hand-typed list through ScreeningXml, errors inside a 200, refresh tokens that do not slide",
  kind: "build",
  roles: { [ROLE]: { vendor: "vettly", checkpoint: 0, scale: 3 } },
  seed: 21,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "absolute_refresh_expiry_doc_lie",
  entry: { command: ["node", "src/main.ts"], subcommands: ["archive"] },
  outputs: { [FILE]: jsonLines(ArchiveRow) },
  timeLimitS: 90,
  scenarios: [
    {
      // One long archive run: ~700 ReportDetail calls, so the access token dies every 120
      // requests, the refresh chain's absolute 600 s runs out once, every token is revoked
      // early on, and the real 200-request quota closes three times.
      name: "archive_holds",
      judge: (e, c, ctx) => {
        const run = byLabel(e, "archive");
        const rest = restPaths(ctx);
        const restReads = (e.requests[ROLE] ?? []).filter((r) => r.method === "GET" && rest.some((p) => p.test(r.path)));
        c.check("reports_read_through_screeningxml", restReads.length === 0, {
          basis: { ticket: XML_ONLY },
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: restReads.length ? `${restReads.length} REST reads (first: #${restReads[0].seq} ${restReads[0].path})` : "every read went through ScreeningXml",
        });
        if (!plumbing(c, "archive_exit_ok", run, [FILE], { ticket: EXIT_OK })) return;
        const rows = (outputRows<ArchiveRow>(run, FILE) ?? []).filter((r) => r && typeof r === "object");
        const wanted = holds();
        const matterOf = new Map(wanted.map((h) => [h.report_id, h.matter]));
        const counts = new Map<string, number>();
        for (const r of rows) counts.set(r.report_id, (counts.get(r.report_id) ?? 0) + 1);
        const missing = wanted.filter((h) => !counts.has(h.report_id)).map((h) => h.report_id);
        const extra = [...counts.keys()].filter((id) => !matterOf.has(id));
        const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
        const unlike = [...counts.keys()].filter((id) => !/^rpt_\d{6}$/.test(id));
        c.check("lines_name_vettly_ids", rows.length > 0 && unlike.length === 0, {
          basis: { ticket: VETTLY_ID },
          pass: 1,
          fail: 0,
          mandatory: true,
          detail: !rows.length
            ? "no lines"
            : unlike.length
              ? `${unlike.length} lines name a report otherwise than Vettly writes its ids (${fewIds(unlike.map((id) => JSON.stringify(id)))})`
              : "every line names its report by Vettly's id",
        });
        const wrongMatter = rows.filter((r) => matterOf.has(r.report_id) && r.matter !== matterOf.get(r.report_id)).map((r) => r.report_id);
        c.check("one_line_per_hold", !missing.length && !extra.length && !twice.length && !wrongMatter.length, {
          basis: { ticket: ONE_LINE },
          pass: 1,
          fail: 0,
          mandatory: true,
          detail:
            [
              missing.length && `${missing.length} holds have no line (${fewIds(missing)})`,
              extra.length && `${extra.length} lines for ids not in the file (${fewIds(extra)})`,
              twice.length && `${twice.length} ids on more than one line (${fewIds(twice)})`,
              wrongMatter.length && `${wrongMatter.length} lines with another matter (${fewIds(wrongMatter)})`,
            ]
              .filter(Boolean)
              .join("; ") || `${rows.length} lines, one per hold`,
        });

        const truth = new Map((e.snapshots.end[ROLE].entities.report ?? []).filter((r) => !r.deleted).map((r) => [r.id, r.record]));
        const byId = new Map(rows.map((r) => [r.report_id, r]));
        const known = wanted.filter((h) => truth.has(h.report_id));
        const unknown = wanted.filter((h) => !truth.has(h.report_id));
        const wrong = known.filter((h) => {
          const row = byId.get(h.report_id);
          if (row?.status !== "archived" || !row.report) return true;
          const { id: _id, ...want } = truth.get(h.report_id)!;
          return canonical(row.report) !== canonical(want);
        });
        c.check("archived_reports_match_vettly", known.length > 0 && wrong.length === 0, {
          basis: { ticket: AS_VETTLY },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: wrong.length
            ? `${wrong.length} of ${known.length} held reports missing, not archived or not as Vettly holds them (${fewIds(wrong.map((h) => h.report_id))})`
            : `${known.length} reports archived as Vettly holds them`,
        });
        const notFlagged = unknown.filter((h) => {
          const row = byId.get(h.report_id);
          return row?.status !== "not_found" || row.report !== null;
        });
        c.check("unknown_ids_not_found", unknown.length > 0 && notFlagged.length === 0, {
          basis: { ticket: NOT_FOUND },
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: notFlagged.length
            ? `${notFlagged.length} of ${unknown.length} ids Vettly never issued are not recorded as not_found (${fewIds(notFlagged.map((h) => h.report_id))})`
            : `${unknown.length} unknown ids recorded as not_found`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "When Vettly asks us to wait, wait as long as it asks",
  },
});
