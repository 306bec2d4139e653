// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

const ARCHIVE = "src/archive.ts";
const GATEWAY = "src/paygrade.ts";

export default defineMutants({
  mutants: [
    {
      id: "filter-named-as-docs-say",
      mistake: "sends the change filter as modifiedSince, as PayGrade's docs name it; the gateway ignores it and every run reads every record again",
      patches: [
        { file: ARCHIVE, find: "{ changedSince: since }", replace: "{ modifiedSince: since }" },
        { file: ARCHIVE, find: "{ changedSince: deletionsSince }", replace: "{ modifiedSince: deletionsSince }" },
      ],
    },
    {
      id: "watermark-from-classic-run-clock",
      mistake: "carries on from the Classic state's last_run_at, the job box's clock, instead of PayGrade's own last_changed stamps",
      patches: [
        {
          file: ARCHIVE,
          find: "const state: State = { watermarks: {} };",
          replace:
            'const since = readJson<{ last_run_at: string }>(config.outputDir, "classic/state.json", { last_run_at: "" }).last_run_at;\n  const state: State = { watermarks: { employee: since, assignment: since, deletion: since } };',
        },
        { file: ARCHIVE, find: "      if (rec.last_changed) state.watermarks[k.type] = utc(later(state.watermarks[k.type], rec.last_changed));\n", replace: "" },
      ],
    },
    {
      id: "offset-stamps-kept-verbatim",
      mistake: "believes the docs that PayGrade's timestamps are UTC and keeps deleted_at as stamped, offset and all",
      patches: [{ file: "src/mirror.ts", find: "return new Date(ms).toISOString();", replace: "return stamp;" }],
    },
    {
      id: "deleted-at-from-host-clock",
      mistake: "stamps deleted_at with the time the job noticed the deletion, not the time PayGrade's deletions list gives",
      patches: [{ file: ARCHIVE, find: "deleted_at: deletedAt,", replace: "deleted_at: new Date().toISOString()," }],
    },
    {
      id: "classic-roster-kept-as-text",
      mistake: "adopts the Classic roster as it is stored, every value text and a nil an empty string, so last_known loses PayGrade's types",
      patches: [{ file: ARCHIVE, find: "copies[k.type][id] = typed(rec);", replace: "copies[k.type][id] = rec;" }],
    },
    {
      id: "classic-closures-carried-verbatim",
      mistake: "carries the Classic job's closure rows over as they are, their last_known still all text with nil as an empty string",
      patches: [{ file: ARCHIVE, find: "{ ...c, last_known: c.last_known && typed(c.last_known) }", replace: "c" }],
    },
    {
      id: "classic-deletions-not-reread",
      mistake: "reads the deletions list only from the newest change in the Classic roster, so the rows the Classic job wrote keep the time it noticed instead of PayGrade's",
      patches: [
        { file: ARCHIVE, find: "  return { copies, state };", replace: "  state.watermarks.deletion = state.watermarks.employee;\n  return { copies, state };" },
        { file: ARCHIVE, find: "Date.parse(state.watermarks.deletion) - LATE_DELETIONS_MS", replace: "Date.parse(state.watermarks.deletion)" },
      ],
    },
    {
      id: "deletions-from-newest-seen",
      mistake: "reads the deletions list only from the newest deletion it has seen, so a deletion a branch keys in late, dated before that, is never archived",
      patches: [{ file: ARCHIVE, find: "Date.parse(state.watermarks.deletion) - LATE_DELETIONS_MS", replace: "Date.parse(state.watermarks.deletion)" }],
    },
    {
      id: "changed-records-not-recopied",
      mistake:
        "adds records it has not seen to its copies but keeps the copy it already holds of the others, so a record that changed after it was first copied and is then deleted is archived as it first stood",
      patches: [{ file: ARCHIVE, find: "copies[k.type][id] = typed(f);", replace: "copies[k.type][id] ??= typed(f);" }],
    },
    {
      id: "put-back-records-kept",
      mistake: "treats the deletions list as append-only: a record PayGrade's helpdesk put back is live again and gone from the list, yet the archive keeps its row",
      patches: [{ file: ARCHIVE, find: "      if (closures.get(id)?.record_type === k.type) closures.delete(id);\n", replace: "" }],
    },
    {
      id: "late-changes-missed",
      mistake:
        "reads employees and assignments changed since an hour before the newest change it has seen, so a pay change a branch keys in late, dated when it took effect, is never read and a deleted assignment's last_known misses it",
      patches: [{ file: ARCHIVE, find: "const LATE_CHANGES_MS = 21 * 86_400_000;", replace: "const LATE_CHANGES_MS = 3_600_000;" }],
    },
    {
      id: "pay-runs-archived",
      mistake: "archives every entry of the deletions list, pay runs included",
      patches: [{ file: ARCHIVE, find: "    if (!KINDS.some((k) => k.type === type)) continue;\n", replace: "    copies[type] ??= {};\n" }],
    },
    {
      id: "moving-list-read-once",
      mistake:
        "reads each list once, page by page until its total, dropping the records a page repeats: when payroll staff change assignments while the list is paged, the records that move to its head are never read, and those deleted the week after are archived without the change",
      patches: [
        {
          file: GATEWAY,
          find: "      if (seen.size >= total) return [...seen.values()];\n",
          replace: "      return [...seen.values()];\n",
        },
      ],
    },
    {
      id: "cut-answer-ends-night",
      mistake: "retries a call that fails or answers 5xx, but reads the answer's body outside the retry, so an answer that breaks off mid-body ends the night with exit 1",
      patches: [
        {
          file: GATEWAY,
          find: "        // The body is read inside the retry: an answer can break off part-way through it.\n        text = await res.text();\n",
          replace: "",
        },
        {
          file: GATEWAY,
          find: "        await sleep(250 * attempt);\n        continue;\n      }\n      if (res.status === 429",
          replace: "        await sleep(250 * attempt);\n        continue;\n      }\n      text = await res.text();\n      if (res.status === 429",
        },
      ],
    },
  ],
});
