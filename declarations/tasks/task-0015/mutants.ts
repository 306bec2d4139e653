import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "archived-flag-ignored",
      mistake: "believes the docs that deleted records vanish from lists: every row is written with is_deleted false, archived candidates included",
      patches: [{ file: "src/main.ts", find: "is_deleted: r.archived === true", replace: "is_deleted: false" }],
    },
    {
      id: "offset-relabelled-utc",
      mistake: "makes timestamps UTC by swapping the branch's offset for `Z` instead of converting: a local time is stored as if it were UTC",
      patches: [
        {
          file: "src/main.ts",
          find: 'return Number.isNaN(ms) ? v : new Date(ms).toISOString().replace(".000Z", "Z");',
          replace: 'return Number.isNaN(ms) ? v : v.replace(/(Z|[+-]\\d{2}:?\\d{2})$/, "Z");',
        },
      ],
    },
    {
      id: "v2-list-trusted-complete",
      mistake:
        "trusts a v2 list paged to its end as complete without comparing it with its total_count: the timesheets v2 skips at page boundaries are never filled from v1 and v1_dependencies stays empty",
      patches: [{ file: "src/main.ts", find: "if (byId.size >= v2.total) return", replace: "if (v2.records.length > 0) return" }],
    },
    {
      id: "v1-fill-not-deduplicated",
      mistake: "fills a short v2 list by appending the whole v1 list to it, so every record both versions return is mirrored twice",
      patches: [
        {
          file: "src/main.ts",
          find: "return { records: [...byId.values()], readFrom: [res.v2, res.v1], v2Short: true };",
          replace: "return { records: [...v2.records, ...v1.records], readFrom: [res.v2, res.v1], v2Short: true };",
        },
      ],
    },
    {
      id: "offset-advanced-by-requested-limit",
      mistake: "asks for the documented 500 per page and advances the offset by the limit it asked for, not by what came back: the vendor's silent 200 cap skips 300 records a page",
      patches: [
        { file: "src/globalhire.ts", find: "const PAGE_LIMIT = 200;", replace: "const PAGE_LIMIT = 500;" },
        { file: "src/globalhire.ts", find: "offset += page.items.length;", replace: "offset += PAGE_LIMIT;" },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the task's only 429 (fault gh-second-request-429) asks for 2 s, and with Retry-After unread gold falls back to X-RateLimit-Reset or 2.1 s, which waits at least as long: no request changes",
  },
});
