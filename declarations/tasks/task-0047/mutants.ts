// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "full-recrawl-every-night",
      mistake: "reads every employee and assignment again on each night's run instead of only what changed since the last run that finished",
      patches: [
        {
          file: "src/sync.ts",
          find: "for (const f of await pg.list(e.op, e.name, { changedSince: since })) {",
          replace: "for (const f of await pg.list(e.op, e.name, {})) {",
        },
      ],
    },
    {
      id: "watermark-from-host-clock",
      mistake:
        "takes the watermark from the host's clock at the end of the run instead of PayGrade's own last_changed stamps, so the next run asks for changes since a time PayGrade's clock has not reached",
      patches: [{ file: "src/sync.ts", find: "next.watermarks[e.name] = later(next.watermarks[e.name], row.updated_at);", replace: "next.watermarks[e.name] = new Date().toISOString();" }],
    },
    {
      id: "updated-at-as-stamped",
      mistake: "copies last_changed into updated_at as PayGrade stamped it, offset and all, instead of as a UTC instant ending in Z",
      patches: [{ file: "src/sync.ts", find: "updated_at: utc(String(f.last_changed)), is_deleted: false", replace: "updated_at: String(f.last_changed), is_deleted: false" }],
    },
    {
      id: "rates-as-strings",
      mistake: "keeps every field as the text the SOAP envelope carries, so pay_rate and bill_rate land in the copy as strings",
      patches: [{ file: "src/sync.ts", find: "data[k] = v !== null && ints.includes(k) ? Number(v) : v;", replace: "data[k] = v;" }],
    },
    {
      id: "nil-as-empty-string",
      mistake: 'reads an xsi:nil element as an empty string instead of null, so fields PayGrade has no value for are copied as ""',
      patches: [{ file: "src/paygrade.ts", find: 'out[m[1]] = nil ? null : xmlUnescape(m[3] ?? "");', replace: 'out[m[1]] = xmlUnescape(m[3] ?? "");' }],
    },
    {
      id: "deletions-not-read",
      mistake: "never reads PayGrade's deletions list, so records deleted since the first night stay in the copy as live rows",
      patches: [
        {
          file: "src/sync.ts",
          find: 'for (const d of await pg.list("ListDeletions", "deletion", { changedSince: state.watermarks.deletion })) {',
          replace: "for (const d of [] as Record<string, string | null>[]) {",
        },
      ],
    },
    {
      id: "documented-page-size",
      mistake: "believes the documentation's 500-record pages; the gateway refuses a count above 100",
      patches: [{ file: "src/paygrade.ts", find: "export const PAGE = 100;", replace: "export const PAGE = 500;" }],
    },
    {
      id: "assignment-number-as-typed",
      mistake: "looks up assignment numbers as Finance typed them, only trimmed ('ASG_000011', 'asg_7'), so those rows are reported unknown",
      patches: [
        {
          file: "src/rates.ts",
          find: "export function assignmentId(typed: string): string | null {",
          replace: "export function assignmentId(typed: string): string | null {\n  if (typed.trim()) return typed.trim();",
        },
      ],
    },
    {
      id: "float-dollars",
      mistake: "converts dollars to cents with floating point (19.99 * 100), sending PayGrade a rate that is not a whole number of cents",
      patches: [
        {
          file: "src/rates.ts",
          find: 'return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;',
          replace: 'return m ? Number(dollars.trim().replace(/^\\$/, "")) * 100 : null;',
        },
      ],
    },
    {
      id: "list-read-once",
      mistake:
        "pages through a list once and keeps what it got, without counting the distinct records against total_records, so assignments that moved to the head of the list mid-crawl are never read",
      patches: [{ file: "src/paygrade.ts", find: "      if (seen.size >= total) return [...seen.values()];\n", replace: "      return [...seen.values()];\n" }],
    },
    {
      id: "request-id-per-run",
      mistake:
        "makes each change's request_id afresh on every run (kept across the retries of one call), so a rerun that reads an assignment from the bureau's cache as it was before the change makes the change a second time",
      patches: [
        { file: "src/rates.ts", find: 'import { createHash } from "node:crypto";', replace: 'import { createHash, randomUUID } from "node:crypto";' },
        {
          file: "src/rates.ts",
          find: 'const requestId = createHash("sha256").update(`rate-change|${id}|${pay}|${bill}`).digest("hex").slice(0, 32);',
          replace: "const requestId = randomUUID();\n        void createHash;",
        },
      ],
    },
    {
      id: "request-id-dropped",
      mistake: "sends UpdateAssignment without a request_id, so the retry of a change whose answer was lost is applied a second time",
      patches: [{ file: "src/rates.ts", find: "bill_rate: bill, request_id: requestId });", replace: "bill_rate: bill });" }],
    },
    {
      id: "closed-placements-re-rated",
      mistake: "re-rates assignments that are not open (ended or cancelled placements)",
      patches: [{ file: "src/rates.ts", find: 'if (now.state !== "open") results.push({ line, assignment_id: id, outcome: "not_open" });\n    else if (pay > bill)', replace: "if (pay > bill)" }],
    },
    {
      id: "negative-margin-applied",
      mistake: "applies a pay rate above the bill rate: the margin is never checked",
      patches: [{ file: "src/rates.ts", find: 'else if (pay > bill) results.push({ line, assignment_id: id, outcome: "negative_margin" });\n    else {', replace: "else {" }],
    },
    {
      id: "deleted-reported-unknown",
      mistake: "reports every assignment PayGrade cannot find as unknown, without looking at the deletions list for the ones it deleted",
      patches: [
        {
          file: "src/rates.ts",
          find: 'deleted ??= await deletedAssignments(pg);\n      results.push({ line, assignment_id: id, outcome: deleted.has(id) ? "deleted" : "unknown" });',
          replace: 'results.push({ line, assignment_id: id, outcome: "unknown" });',
        },
      ],
    },
  ],
  equivalent: {},
});
