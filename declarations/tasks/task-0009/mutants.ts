import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "tombstones-not-mirrored",
      mistake: "mirrors only the candidates StaffLine lists and never reads /svc/tombstones, so deleted candidates never reach the mirror as is_deleted rows",
      patches: [{ file: "src/mirror.ts", find: "for (const [id, deletedTs] of await deletedCandidates(client)) {", replace: "for (const [id, deletedTs] of new Map<string, unknown>()) {" }],
    },
    {
      id: "http-200-taken-as-stored",
      mistake: "takes createNote's HTTP 200 as the note being stored without reading `success`, so refused notes are reported written",
      patches: [
        {
          file: "src/notes.ts",
          find: 'if (outcome.status === 200 && body.success === true && typeof body.id === "string") return { kind: "stored", id: body.id };',
          replace: 'if (outcome.status === 200) return { kind: "stored", id: String(body.id) };',
        },
      ],
    },
    {
      id: "lost-answer-resent-blind",
      mistake: "after createNote answers 500 it sends the note again without first looking whether StaffLine stored it",
      patches: [{ file: "src/notes.ts", find: "const found = await this.whileClosed(() => this.findStored(note));", replace: "const found: string | null = null;" }],
    },
    {
      id: "no-ledger-across-runs",
      mistake: "keeps no record of written notes under OUTPUT_DIR, so a rerun after a lost result file writes every note again",
      patches: [{ file: "src/notes.ts", find: "this.ledger = readJson<Record<string, Entry>>(config.outputDir, LEDGER, {});", replace: "this.ledger = {};" }],
    },
    {
      id: "first-revision-kept",
      mistake: "dedupes the export by note_ref keeping the first row it meets, so an edited note goes in at its old text",
      patches: [{ file: "src/notes.ts", find: "if (!had || row.revision > had.revision) latest.set(row.note_ref, row);", replace: "if (!had) latest.set(row.note_ref, row);" }],
    },
    {
      id: "long-text-truncated",
      mistake: "truncates a note longer than StaffLine's 2000 characters to get it through, instead of reporting text_too_long",
      patches: [{ file: "src/notes.ts", find: "note_text: note.body, author", replace: "note_text: note.body.slice(0, 2000), author" }],
    },
  ],
});
