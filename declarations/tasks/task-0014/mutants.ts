import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "offset-dropped-from-stamps",
      mistake: "reads each updated_at's wall-clock time as UTC, dropping the branch's UTC offset, so the high-water mark and the next run's modified_since are hours off",
      patches: [{ file: "src/feed.ts", find: "const at = instantOf(r.updated_at);", replace: 'const at = instantOf(r.updated_at.slice(0, 19) + "Z");' }],
    },
    {
      id: "archived-believed-gone",
      mistake: "believes the docs that deleted records disappear from the lists, so a record GlobalHire returns with archived: true is delivered as an upsert",
      patches: [{ file: "src/feed.ts", find: 'op: r.archived === true ? "delete" : "upsert",', replace: 'op: "upsert",' }],
    },
    {
      id: "boundary-records-redelivered",
      mistake: "forgets that modified_since is at-or-after: the records at the watermark come back on the next run and are delivered again",
      patches: [{ file: "src/feed.ts", find: "if (prev && (at < prev.ms || (at === prev.ms && seenAtMark.has(r.id)))) continue;", replace: "if (prev && at < prev.ms) continue;" }],
    },
    {
      id: "watermark-from-host-clock",
      mistake: "takes the feed's watermark from the host clock at the end of the run instead of the newest updated_at GlobalHire returned",
      patches: [{ file: "src/main.ts", find: "next[entity] = read.next;", replace: "next[entity] = { ms: Date.now(), ids: [] };" }],
    },
    {
      id: "entity-checkpointed-before-run-ends",
      mistake: "commits each entity's watermark as soon as that entity is read, so a run that then fails on placements has moved the candidate feed forward and the next run misses those changes",
      patches: [
        {
          file: "src/main.ts",
          find: "next[entity] = read.next;",
          replace: "next[entity] = read.next;\n    commit(config.outputDir, changes, { runs: (state?.runs ?? 0) + 1, entities: { ...state?.entities, ...next } });",
        },
      ],
    },
    {
      id: "docs-page-size-believed",
      mistake: "asks for the documented 500 records a page and stops at the first page shorter than that, which GlobalHire's silent 200-record cap makes the first page",
      patches: [
        { file: "src/globalhire.ts", find: "export const PAGE_LIMIT = 200;", replace: "export const PAGE_LIMIT = 500;" },
        {
          file: "src/globalhire.ts",
          find: "if (page.items.length === 0 || offset >= page.total_count) return out;",
          replace: "if (page.items.length < PAGE_LIMIT || offset >= page.total_count) return out;",
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "without Retry-After gold falls back to GlobalHire's X-RateLimit-Reset, else to 2.1 s; the only 429s here come from a window with a 2 s cooldown, so every wait still covers what GlobalHire asked (its 502/503 faults carry no wait to honour)",
  },
});
