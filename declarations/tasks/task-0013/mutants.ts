import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "served-window-trusted-whole",
      mistake: "takes each answer as covering the whole window it asked for and never asks again from where GlobalHire's shorter served window ended",
      patches: [{ file: "src/globalhire.ts", find: "cursor = servedTo;", replace: "cursor = toMs;" }],
    },
    {
      id: "voids-believed-gone",
      mistake: "believes the docs that voided entries leave the list, so every entry is written as posted and voids count toward the totals",
      patches: [{ file: "src/main.ts", find: 'status: e.archived === true ? "voided" : "posted",', replace: 'status: "posted",' }],
    },
    {
      id: "bounds-read-as-utc-midnight",
      mistake: "reads the periods' London midnights as UTC midnights, dropping their +01:00 offset, so each period is cut an hour late",
      patches: [
        { file: "src/main.ts", find: "const fromMs = instant(p.starts_at);", replace: 'const fromMs = instant(p.starts_at.slice(0, 19) + "Z");' },
        { file: "src/main.ts", find: "const toMs = instant(p.ends_at);", replace: 'const toMs = instant(p.ends_at.slice(0, 19) + "Z");' },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "without Retry-After gold falls back to GlobalHire's X-RateLimit-Reset, else to 2 s; the only 429s here come from a window with a 1 s cooldown, so every wait still covers what GlobalHire asked",
  },
});
