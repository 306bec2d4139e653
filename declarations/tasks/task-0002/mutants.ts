import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "short-page-is-last",
      mistake: "asks for the documented 50 notes per page and takes a page shorter than that as the last, so notes past the vendor's 5-row cut are never read",
      patches: [
        { file: "src/main.ts", find: "const NOTE_PAGE = 5;", replace: "const NOTE_PAGE = 50;" },
        { file: "src/talentforge-client.ts", find: "cursor = page.next_cursor ?? null;", replace: "cursor = page.data.length < limit ? null : (page.next_cursor ?? null);" },
      ],
    },
    {
      id: "notes-of-changed-candidates-only",
      mistake: "on a catch-up re-reads the notes of changed candidates only, though adding or deleting a note does not change its candidate's updated_at",
      patches: [
        {
          file: "src/main.ts",
          find: "    candidates.set(String(record.id), toRow(record));\n",
          replace: "    candidates.set(String(record.id), toRow(record));\n    changedIds.push(String(record.id));\n",
        },
        { file: "src/main.ts", find: "  let watermarkMs = state.watermarkMs ?? 0;\n", replace: "  let watermarkMs = state.watermarkMs ?? 0;\n  const changedIds: string[] = [];\n" },
        { file: "src/main.ts", find: "await pool([...candidates.keys()], SWEEP_CONCURRENCY,", replace: "await pool(changedIds, SWEEP_CONCURRENCY," },
        { file: "src/main.ts", find: "  for (const [id, row] of notes) if (!seen.has(id)) row.is_deleted = true;\n", replace: "" },
      ],
    },
    {
      id: "watermark-from-host-clock",
      mistake: "stores the host's clock as the watermark instead of the newest updated_at TalentForge returned, so the catch-up asks for changes after a time TalentForge has not reached",
      patches: [{ file: "src/main.ts", find: "writeState(config.outputDir, { watermarkMs });", replace: "writeState(config.outputDir, { watermarkMs: Date.now() });" }],
    },
    {
      id: "candidate-table-reread",
      mistake: "the catch-up lists the whole candidate table again instead of reading it through modified_since",
      patches: [
        {
          file: "src/main.ts",
          find: 'const since: Record<string, string> = command === "incremental" ? { modified_since: new Date(state.watermarkMs!).toISOString() } : {};',
          replace: "const since: Record<string, string> = {};",
        },
      ],
    },
    {
      id: "delete-flag-ignored",
      mistake: "ignores TalentForge's is_deleted flag, so a deleted candidate is mirrored as live",
      patches: [{ file: "src/mirror.ts", find: "is_deleted: record.is_deleted === true };", replace: "is_deleted: false };" }],
    },
    {
      id: "updated-since-believed",
      mistake: "believes the changelog and filters with updated_since, which TalentForge ignores, so every catch-up lists the whole candidate table",
      patches: [{ file: "src/main.ts", find: "{ modified_since: new Date(state.watermarkMs!).toISOString() }", replace: "{ updated_since: new Date(state.watermarkMs!).toISOString() }" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "TalentForge's window refuses only after 600 requests and gold's runs stay below that (its manifest has no retry_after_honored: no 429 was ever sent), with no fault armed, so there is no Retry-After to honour",
    "shared-no-wait": "no fault is armed and gold's runs stay under the 600-request window, so no 429, 5xx or network error ever calls for a wait",
  },
});
