import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "embedded-members-trusted",
      mistake: "takes each pool's embedded `mb` list as its whole membership and ignores `mb_truncated`, so pools larger than the embedded five are undercounted",
      patches: [
        {
          file: "src/main.ts",
          find: "p.mb_truncated !== false || !Array.isArray(p.mb) ?",
          replace: "!Array.isArray(p.mb) ?",
        },
      ],
    },
    {
      id: "members-read-for-every-pool",
      mistake: "reads the members list of every pool, even those whose embedded list is complete, paying for calls the index does not need",
      patches: [{ file: "src/main.ts", find: "p.mb_truncated !== false || !Array.isArray(p.mb) ?", replace: "true ?" }],
    },
    {
      id: "deleted-profiles-kept",
      mistake: "keeps members whose Sourcewell profile has been deleted: the membership still lists them, and the job never checks the talent list",
      patches: [{ file: "src/capability-index.ts", find: "    if (!alive(m.tid)) continue;\n", replace: "" }],
    },
    {
      id: "last-added-from-deleted-profiles",
      mistake: "takes last_added_at from the pool's newest membership before leaving out deleted profiles, so a pool whose latest addition has since been erased shows when that person was added",
      patches: [
        {
          file: "src/capability-index.ts",
          find: "    if (!alive(m.tid)) continue;\n    people.add(m.tid);\n    if (last === null || m.ca > last) last = m.ca;\n",
          replace: "    if (last === null || m.ca > last) last = m.ca;\n    if (!alive(m.tid)) continue;\n    people.add(m.tid);\n",
        },
      ],
    },
    {
      id: "removed-members-kept",
      mistake: "takes every membership a pool lists as someone in the pool and ignores `ra`, so people recruiters have taken out of a pool are still indexed in it",
      patches: [{ file: "src/capability-index.ts", find: "    if (m.ra !== null && m.ra !== undefined && m.ra <= nowS) continue;\n", replace: "" }],
    },
    {
      id: "last-added-from-removed-members",
      mistake:
        "leaves people taken out of a pool out of talent_ids but takes last_added_at from every listed membership, so a pool whose latest addition has been taken out again shows when that person was added",
      patches: [
        {
          file: "src/capability-index.ts",
          find: "    if (m.ra !== null && m.ra !== undefined && m.ra <= nowS) continue;\n    if (!alive(m.tid)) continue;\n    people.add(m.tid);\n    if (last === null || m.ca > last) last = m.ca;\n",
          replace:
            "    if (!alive(m.tid)) continue;\n    if (last === null || m.ca > last) last = m.ca;\n    if (m.ra !== null && m.ra !== undefined && m.ra <= nowS) continue;\n    people.add(m.tid);\n",
        },
      ],
    },
    {
      id: "booked-removals-taken-as-done",
      mistake:
        "takes every membership with a removal stamp as ended, so people whose removal is booked for a date still to come are left out of pools they are still in (and a pool's latest addition among them moves last_added_at back)",
      patches: [{ file: "src/capability-index.ts", find: "m.ra !== undefined && m.ra <= nowS) continue;", replace: "m.ra !== undefined) continue;" }],
    },
    {
      id: "repeat-adds-counted",
      mistake: "lists a person once per membership, so someone added to a pool twice appears twice and is counted twice",
      patches: [
        {
          file: "src/capability-index.ts",
          find: "const talentIds = [...people].sort();",
          replace: "const talentIds = memberships.filter((m) => alive(m.tid)).map((m) => m.tid).sort();",
        },
      ],
    },
    {
      id: "retired-skills-counted",
      mistake: "counts endorsements of retired skill entries",
      patches: [{ file: "src/capability-index.ts", find: "if (!skill || skill.ret || e.lvl < MIN_LEVEL) continue;", replace: "if (!skill || e.lvl < MIN_LEVEL) continue;" }],
    },
    {
      id: "level-three-excluded",
      mistake: "reads 'level 3 or above' as above level 3: a skill held at exactly level 3 is left out",
      patches: [{ file: "src/capability-index.ts", find: "e.lvl < MIN_LEVEL", replace: "e.lvl <= MIN_LEVEL" }],
    },
    {
      id: "stamp-seconds-as-ms",
      mistake: "takes Sourcewell's added-at stamps (whole seconds since the epoch) as milliseconds, so last_added_at lands in January 1970",
      patches: [{ file: "src/capability-index.ts", find: "new Date(last * 1000).toISOString()", replace: "new Date(last).toISOString()" }],
    },
    {
      id: "empty-pools-dropped",
      mistake: "writes rows only for pools with someone in them: an empty pool gets no row",
      patches: [{ file: "src/main.ts", find: ".sort((a, b) => (a.pool_id < b.pool_id ? -1 : 1));", replace: ".filter((r) => r.people > 0).sort((a, b) => (a.pool_id < b.pool_id ? -1 : 1));" }],
    },
    {
      id: "first-page-only",
      mistake: "reads one page of 100 from each list and never follows `_links.next`, so the talent and endorsement lists are cut at 100",
      patches: [
        { file: "src/sourcewell.ts", find: "next = href && page.d.length ?", replace: "next = href && false ?" },
        { file: "src/sourcewell.ts", find: "if (byId.size === cnt && rows === cnt) return", replace: "if (cnt >= 0) return" },
      ],
    },
    {
      id: "single-pass-lists",
      mistake:
        "reads each list once, page by page, retrying failed pages and answers cut off mid-body, and checks the number of records read against `cnt`: when the list moves under the crawl the pass repeats some endorsements and misses as many, its length still equals `cnt`, and the missed skills are left out of the index",
      patches: [{ file: "src/sourcewell.ts", find: "if (byId.size === cnt && rows === cnt) return [...byId.values()];", replace: "if (rows === cnt) return [...byId.values()];" }],
    },
    {
      id: "distinct-count-read-twice-at-most",
      mistake:
        "counts distinct ids against `cnt` and reads a list again once when they fall short, then keeps what that second read gave: when the list moves again during the second read, endorsements and so skills are still missed",
      patches: [
        {
          file: "src/sourcewell.ts",
          find: "if (byId.size === cnt && rows === cnt) return [...byId.values()];",
          replace: "if ((byId.size === cnt && rows === cnt) || read >= 2) return [...byId.values()];",
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no 429 or 503 is answered in this task's morning (gold's manifest records no retry_after_honored: its fewer than 150 calls stay under Sourcewell's limit, and the faults are a cut-off answer, a 502 and the endorsements list moving under the crawl)",
    "shared-no-wait":
      "the faults are one answer cut off mid-body, two 502s on one endorsements page and the endorsements list moving twice (a read that starts over is served whatever the pause): the next ask is served whatever the pause, and gold's 50-100 ms backoff is already within what the hot-loop check allows",
  },
});
