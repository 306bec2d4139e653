import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "disqualified-left-out-of-applications",
      mistake: "follows the Mart's notes: applications counts only live applications, leaving the disqualified ones out",
      patches: [
        {
          file: "src/rollup.ts",
          find: "String(mine.length),\n        String(mine.length - placed - disqualified),",
          replace: "String(mine.length - disqualified),\n        String(mine.length - placed - disqualified),",
        },
      ],
    },
    {
      id: "active-is-applications-minus-placed",
      mistake: "follows the Mart's notes: active is applications minus placed, so disqualified applications count as active",
      patches: [{ file: "src/rollup.ts", find: "String(mine.length - placed - disqualified),", replace: "String(mine.length - placed)," }],
    },
    {
      id: "placed-includes-disqualified",
      mistake: "counts every application at stage placed as placed, disqualified ones included",
      patches: [{ file: "src/rollup.ts", find: 'mine.filter((a) => !a.disqualified && a.stage === "placed")', replace: 'mine.filter((a) => a.stage === "placed")' }],
    },
    {
      id: "export-split-on-commas",
      mistake: "believes the Mart's notes that the exports are unquoted: splits each line of an export on commas, so a quoted value holding a comma shifts the columns after it",
      patches: [
        {
          file: "src/recruitos.ts",
          find: "export function parseCsv(text: string): string[][] {",
          replace: 'export function parseCsv(text: string): string[][] {\n  if (text) return text.split(/\\r?\\n/).filter((l) => l !== "").map((l) => l.split(","));',
        },
      ],
    },
    {
      id: "application-deletions-ignored",
      mistake: "applies the deletions feed to candidates only: deleted applications stay in state and keep counting on their jobs",
      patches: [{ file: "src/main.ts", find: 'if (t.objectType === "application") delete state.applications[String(t.id)];', replace: "" }],
    },
    {
      id: "jobs-drift-trusted",
      mistake: "trusts a single offset crawl of the jobs list: jobs opened mid-crawl shift the pages, so some jobs are read twice and others missed",
      patches: [{ file: "src/recruitos.ts", find: "if (items.size >= total) return [...items.values()];", replace: "return [...items.values()];" }],
    },
    {
      id: "candidate-deletions-ignored",
      mistake: "applies the deletions feed to applications only: a deleted candidate keeps its source in state, so a referral RecruitOS no longer holds still counts in referrals",
      patches: [{ file: "src/main.ts", find: 'if (t.objectType === "candidate") delete state.candidates[String(t.id)];', replace: "" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored": "the two nights arm only a token revocation (401) and a drifting jobs list: RecruitOS never answers 429 or 503 here, so there is no Retry-After to honour",
    "shared-no-wait": "the only waits are the pauses before retrying a 429 or 5xx, which these worlds never send; export readiness is counted in status reads, not time",
  },
});
