import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "email-trusted-over-booked-id",
      mistake: "finds the candidate by the manifest's candidate_email even when Panelwise gives the booked TalentLoop id, so a candidate who changed their email gets someone else's scorecard or none",
      patches: [{ file: "src/deliver.ts", find: "const id = card.talentloop_candidate_id?.trim();", replace: 'const id = card.candidate_email?.trim() ? "" : card.talentloop_candidate_id?.trim();' }],
    },
    {
      id: "email-compared-as-typed",
      mistake: "matches a walk-in's email exactly as the manifest spells it, without trimming spaces or ignoring case",
      patches: [{ file: "src/deliver.ts", find: "byEmail.get(emailKey(card.candidate_email))", replace: "byEmail.get(card.candidate_email)" }],
    },
    {
      id: "deleted-candidate-reported-missing",
      mistake: "reports a candidate TalentLoop deleted (410 Gone) as candidate_missing, so compliance cannot count the deletions",
      patches: [
        {
          file: "src/deliver.ts",
          find: 'if (s.state === "deleted") throw new Quarantine(card, id, "candidate_deleted", s.detail);',
          replace: 'if (s.state === "deleted") throw new Quarantine(card, id, "candidate_missing", s.detail);',
        },
      ],
    },
    {
      id: "checksum-not-verified",
      mistake: "never compares the file's bytes with the manifest's sha256, so a file damaged on the way is attached",
      patches: [{ file: "src/deliver.ts", find: "if (digest !== card.sha256.trim().toLowerCase())", replace: "if (!card.sha256)" }],
    },
    {
      id: "manifest-type-trusted",
      mistake: "sends each file with the manifest's content_type (what the browser or mobile app claimed) instead of the type its signature shows",
      patches: [{ file: "src/files.ts", find: "for (const [type, sig] of SIGNATURES) if (sig.every((b, i) => bytes[i] === b)) return type;", replace: "" }],
    },
    {
      id: "lost-answer-resent-blind",
      mistake: "when an upload or note gets no answer or a 5xx, sends it again without first looking whether the first one landed",
      patches: [{ file: "src/deliver.ts", find: "const landed = await onCandidate();\n      if (landed) return landed;", replace: "", count: 2 }],
    },
    {
      id: "rerun-does-not-look-first",
      mistake: "uploads the file and writes the note without first looking at what earlier runs already put on the candidate, so a rerun delivers every scorecard again",
      patches: [{ file: "src/deliver.ts", find: "const had = await onCandidate();\n    if (had) return had;", replace: "", count: 2 }],
    },
    {
      id: "note-before-upload",
      mistake: "writes the scorecard's note before uploading its file, so a scorecard TalentLoop then refuses (unsupported type, too large) leaves a note on the candidate",
      patches: [
        { file: "src/deliver.ts", find: "const note = await ensureNote(card, candidate);\n    return {", replace: "return {" },
        { file: "src/deliver.ts", find: "    let attachment: ApiRecord;\n", replace: "    const note = await ensureNote(card, candidate);\n    let attachment: ApiRecord;\n" },
      ],
    },
    {
      id: "revoked-token-not-replaced",
      mistake: "treats a 401 on a request as final instead of minting a fresh token once, so a token TalentLoop revokes mid-run stops the delivery",
      patches: [{ file: "src/talentloop.ts", find: "if (res.status === 401 && !reminted) {", replace: "if (res.status === 401 && reminted) {" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no scenario sends a 429 (a batch of 16 scorecards stays far under TalentLoop's 300-request quota) and the 500s it arms carry no Retry-After gold waits on, so there is no Retry-After to ignore",
    "shared-no-wait":
      "the failures the storm arms are one-shot (a 500 on the second candidates page once, one upload answered 500 after it committed, one revoked token), each settled by the very next request whatever the pause, and no 429 is sent",
  },
});
