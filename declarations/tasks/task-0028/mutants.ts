// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches quote the connector's template literals word for word
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "offsetless-as-utc",
      mistake: "reads a decided_at without an offset as UTC, though the ticket says it is Dublin time",
      patches: [
        { file: "src/decisions.ts", find: "  const wall = Date.parse(`${text}Z`);\n  if (Number.isNaN(wall)) return wall;", replace: "  const wall = Date.parse(`${text}Z`);\n  return wall;" },
      ],
    },
    {
      id: "empty-disqualified-as-false",
      mistake: "reads an empty disqualified as false and clears the flag, though an empty value is a ruling on the stage only",
      patches: [{ file: "src/decisions.ts", find: 'disqualified: disqualified === "" ? null : disqualified === "true"', replace: 'disqualified: disqualified === "true"' }],
    },
    {
      id: "last-row-wins",
      mistake: "takes an application's last row in the file as its decision, though the rows are not in decision order",
      patches: [{ file: "src/main.ts", find: "if (!seen || d.decidedMs >= seen.decidedMs) out.set(d.applicationId, d);", replace: "out.set(d.applicationId, d);" }],
    },
    {
      id: "superseded-ignored",
      mistake: "overwrites applications a consultant changed after the panel decided, instead of leaving the consultant's change",
      patches: [{ file: "src/main.ts", find: '  if (app.updatedAt > d.decidedMs) return row(app, "superseded");\n', replace: "" }],
    },
    {
      id: "old-job-probe-trusted",
      mistake:
        "probes every application with a single read by id, as the old job did, believing the notes that those reads are always live (no revalidation), so a rerun sees the cached version from before its own write",
      patches: [
        { file: "src/main.ts", find: '{ headers: { "cache-control": "no-cache" } }', replace: "{}" },
        { file: "src/main.ts", find: "  if (listed) {\n    const settled = judged(d, listed);", replace: "  if (listed && !listed) {\n    const settled = judged(d, listed);" },
      ],
    },
    {
      id: "lost-write-reported-in-sync",
      mistake: "reads an application back after its write answered 502 and, finding the decision in place, reports it in_sync, though it was the job's own write that put it there",
      patches: [{ file: "src/main.ts", find: '    if (lost && holds(d, now.app)) return row(now.app, "repaired");\n', replace: "" }],
    },
    {
      id: "write-retried-on-5xx",
      mistake: "retries a stage move that answered 502 like any failed request: the write had landed, the retry meets 412, and the application is then reported in_sync",
      patches: [{ file: "src/recruitos.ts", find: '      if (method !== "GET" && res.status !== 429 && res.status !== 503) return answer;\n', replace: "" }],
    },
    {
      id: "no-compare-before-write",
      mistake: "writes every decision that is not superseded or refused without first checking whether RecruitOS already holds it",
      patches: [
        {
          file: "src/main.ts",
          find: '  if (holds(d, app)) return row(app, "in_sync");\n',
          replace: "",
        },
      ],
    },
    {
      id: "report-pre-write-read",
      mistake: "reports a repaired application as it was read before the write, not as RecruitOS holds it after",
      patches: [{ file: "src/main.ts", find: 'if (put.status === 200) return row(put.body as Application, "repaired");', replace: 'if (put.status === 200) return row(now.app, "repaired");' }],
    },
    {
      id: "repair-logged-as-activity",
      mistake: "logs an activity on the candidate for every repair as an audit trail, a write to RecruitOS the ticket does not allow",
      patches: [
        {
          file: "src/main.ts",
          find: '    if (put.status === 200) return row(put.body as Application, "repaired");',
          replace:
            '    if (put.status === 200) {\n      const candidateId = (put.body as { candidateId?: number }).candidateId;\n      await api.call("POST", `/api/v3/candidates/${candidateId}/activities`, { body: { type: "note", summary: `screening_sync set stage ${d.stage}`, loggedBy: "screening_sync" } });\n      return row(put.body as Application, "repaired");\n    }',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the scenario arms cached application reads, revoked tokens and one write answered 502 after its commit (CACHED_READS, TOKENS_REVOKED, LOST_UPDATE_ANSWER): RecruitOS never answers 429 or 503 here, so there is no Retry-After to honour",
    "shared-no-wait": "no armed fault answers 429 or 503, and the one 502 (a stage move that landed) is read back at once, never waited on and sent again, so there is no wait to drop",
  },
});
