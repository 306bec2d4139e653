import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "claimed-201-trusted",
      mistake: "takes every 207 item marked 201 as stored and never reads the notes back, so the phantom success is reported written though StaffLine has no such note",
      patches: [
        {
          file: "src/migrate.ts",
          find: 'if (res?.status === 201 && typeof res.id === "string") this.claimed.set(row.legacy_id, res.id);',
          replace: 'if (res?.status === 201 && typeof res.id === "string") this.state[row.legacy_id] = { state: "written", id: res.id };',
        },
      ],
    },
    {
      id: "no-request-id",
      mistake: "sends bulk batches without a request_id, so the retry after a 500 that StaffLine had stored writes the batch a second time",
      patches: [{ file: "src/migrate.ts", find: "{ request_id: requestId(batch, pass), notes: batch.map(item) }", replace: "{ notes: batch.map(item) }" }],
    },
    {
      id: "rerun-skips-read-back",
      mistake: "a rerun does not look at what StaffLine already holds and sends every row again",
      patches: [
        { file: "src/migrate.ts", find: "const stored = await this.storedNotes(open.map((r) => r.candidate_id));", replace: "const stored = new Map<string, Record<string, unknown>[] | null>();" },
      ],
    },
    {
      id: "candidate-id-lowercased",
      mistake: "normalises candidate ids to lower case, so a row the export gives as CAND_0042 lands on cand_0042 instead of being rejected",
      patches: [
        { file: "src/migrate.ts", find: "const item = (r: ExportRow) => ({ candidate_id: r.candidate_id,", replace: "const item = (r: ExportRow) => ({ candidate_id: r.candidate_id.toLowerCase()," },
      ],
    },
    {
      id: "long-text-truncated",
      mistake: "truncates a text longer than StaffLine's 2000 characters to get the note in, instead of rejecting it as text_too_long",
      patches: [{ file: "src/migrate.ts", find: "note_text: r.text, author: r.recruiter", replace: "note_text: r.text.slice(0, 2000), author: r.recruiter" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "StaffLine states a 429's wait in the body (retry_after_seconds) and sends no Retry-After header, which gold reads first, and this scenario arms no maintenance (503) fault: there is no header whose loss changes a wait",
  },
});
