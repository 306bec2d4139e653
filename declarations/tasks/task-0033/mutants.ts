import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "placement-id-case-kept",
      mistake: "reads the sheet's placement ids as typed, so a link written PLC_000110 names no placement PlaceMint holds and is skipped",
      patches: [{ file: "src/main.ts", find: 'placement_id: at("placement_id").toLowerCase() };', replace: 'placement_id: at("placement_id") };' }],
    },
    {
      id: "duplicate-links-synced-twice",
      mistake: "syncs every row of the links sheet, so a link entered twice gets each of its notes copied twice",
      patches: [
        { file: "src/main.ts", find: "const links = new Map<string, Link>();", replace: "const links = new Map<string, Link>();\n  const rows: Link[] = [];" },
        { file: "src/main.ts", find: 'placement_id: at("placement_id").toLowerCase() };', replace: 'placement_id: at("placement_id").toLowerCase() };\n    rows.push(link);' },
        { file: "src/main.ts", find: "return [...links.values()];", replace: "return rows;" },
      ],
    },
    {
      id: "copies-listed-in-write-order",
      mistake: "lists the run's copies in copies.json in the order it wrote them instead of by source_note_id",
      patches: [{ file: "src/main.ts", find: "rows.sort((a, b) => (a.source_note_id < b.source_note_id ? -1 : a.source_note_id > b.source_note_id ? 1 : 0));", replace: "" }],
    },
    {
      id: "calls-and-emails-copied",
      mistake: "copies every RecruitOS activity on the candidate to PlaceMint, calls, emails, meetings and texts included, not only notes",
      patches: [{ file: "src/notes.ts", find: 'String(a.candidateId) === link.candidate_id && a.type === "note"', replace: "String(a.candidateId) === link.candidate_id" }],
    },
    {
      id: "sync-copies-copied-back",
      mistake: "treats a PlaceMint note signed Placement sync as a person's note, so the copies it wrote are copied back to RecruitOS on the next run",
      patches: [{ file: "src/notes.ts", find: "if (n.author === SYNC) continue;", replace: "" }],
    },
    {
      id: "far-side-copies-not-looked-up",
      mistake: "does not look on the candidate's timeline for the copies an earlier run logged, so every run copies each PlaceMint note again",
      patches: [{ file: "src/notes.ts", find: "if (!copiedToCrm.has(text)) out.push", replace: "out.push" }],
    },
    {
      id: "deleted-placement-links-synced",
      mistake: "skips a link only when PlaceMint has no such placement, not when its list shows the placement `deleted: true`, so notes flow both ways along links to deleted placements",
      patches: [{ file: "src/main.ts", find: "if (!placement || placement.deleted) {", replace: "if (!placement) {" }],
    },
    {
      id: "deleted-notes-copied",
      mistake: "copies every note in PlaceMint's feed for the placement, including the ones PlaceMint lists as `deleted: true`",
      patches: [{ file: "src/notes.ts", find: "n.placement_id === link.placement_id && !n.deleted", replace: "n.placement_id === link.placement_id" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "neither RecruitOS nor PlaceMint answers 429 or 503 in this scenario (its faults are a 500 after commit, revoked tokens and a shuffling notes list, and gold stays under both rate windows), so there is no Retry-After to honour",
    "shared-no-wait":
      "the only error gold retries is the one 500 PlaceMint answers after committing a note, retried once under the same Idempotency-Key: dropping the pause before that single retry changes nothing the vendors see",
  },
});
