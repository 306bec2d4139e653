import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "boundary-checks-appended-again",
      mistake: "forgets that modified_since means at or after: the checks stamped exactly at the position, already in the feed, are appended once more",
      patches: [{ file: "src/feed.ts", find: "if ((ms(updatedAt) === ms(since) && held.has(c.id)) || seen.has(c.id)) continue;", replace: "if (seen.has(c.id)) continue;" }],
    },
    {
      id: "legacy-position-not-taken-over",
      mistake: "the first REST run does not pick up the legacy feed's position: with no .feed.json it starts from the beginning and appends every check again",
      patches: [
        { file: "src/feed.ts", find: "for (const file of [STATE, LEGACY_STATE]) {", replace: "for (const file of [STATE]) {" },
        { file: "src/feed.ts", find: "throw new Error(`no position to pick up from:", replace: 'return "1970-01-01T00:00:00Z";\n  throw new Error(`no position to pick up from:' },
      ],
    },
    {
      id: "full-list-filtered-locally",
      mistake: "reads the whole check list every run and keeps the records changed since the position itself, instead of asking Vettly with modified_since",
      patches: [
        { file: "src/vettly-rest.ts", find: '{ page_size: "100", modified_since: since }', replace: '{ page_size: "100" }' },
        {
          file: "src/vettly-rest.ts",
          find: "items.push(...((page.results as Item[]) ?? []));",
          replace: "items.push(...((page.results as Item[]) ?? []).filter((i) => Date.parse(String(i.updated_at ?? i.purged_at)) >= Date.parse(since)));",
        },
      ],
    },
    {
      id: "check-list-read-once",
      mistake: "reads the changed checks in one pass by page token and trusts it: the checks that move to the head of the list mid-crawl are never read",
      patches: [{ file: "src/feed.ts", find: "for (let added = -1; added !== 0; ) {", replace: "for (let added = -1; added === -1; ) {" }],
    },
    {
      id: "purge-feed-never-read",
      mistake: 'reads only the check list: a deleted check just leaves the list, so the feed never gets its "deleted" line',
      patches: [{ file: "src/feed.ts", find: 'for (const p of await client.changedSince("/v1/purges", since)) {', replace: "for (const p of [] as Record<string, unknown>[]) {" }],
    },
    {
      id: "deleted-line-stamped-with-last-update",
      mistake: "gives a deleted check's line the updated_at the feed last gave for it instead of the moment Vettly deleted it",
      patches: [{ file: "src/feed.ts", find: "const purgedAt = String(p.purged_at);", replace: "const purgedAt = prior?.updated_at ?? String(p.purged_at);" }],
    },
    {
      id: "position-from-host-clock",
      mistake: "saves the host's clock at the end of the run as the position instead of the newest updated_at it appended",
      patches: [
        { file: "src/feed.ts", find: "const newest = found.reduce((max, l) => (ms(l.updated_at) > ms(max) ? l.updated_at : max), since);", replace: "const newest = new Date().toISOString();" },
      ],
    },
    {
      id: "changes-file-overwritten",
      mistake: "writes each run's changes over changes.jsonl instead of appending to it",
      patches: [
        {
          file: "src/feed.ts",
          find: "appendChanges(outputDir, found);",
          replace: 'writeFileSync(join(outputDir, "changes.jsonl"), found.map((l) => JSON.stringify(l) + "\\n").join(""));\n  void appendChanges;',
        },
      ],
    },
    {
      id: "refused-refresh-is-fatal",
      mistake: "believes the docs that a refresh chain never ends: when Vettly refuses a refresh token the run fails instead of starting a new chain with a fresh grant",
      patches: [
        { file: "src/vettly-rest.ts", find: "console.error(`refresh refused (", replace: "throw new Error(`refresh refused (" },
        { file: "src/vettly-rest.ts", find: "); starting a new token chain`);", replace: ")`);" },
      ],
    },
    {
      id: "xml-drained-before-rest",
      mistake: "to leave no gap, the feed job still runs the ScreeningXml read before its REST read, so Vettly's XML interface is called after the cut-over",
      patches: [{ file: "src/main.ts", find: '{ "legacy-feed": legacyFeed, feed }', replace: '{ "legacy-feed": legacyFeed, feed: async () => {\n  await legacyFeed();\n  await feed();\n} }' }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the cut-over arms only revoked tokens and fast token time: no 429 or 503 fault, and gold's runs stay far below Vettly's 200-request rate window, so no Retry-After is ever sent",
    "shared-no-wait": "gold waits only before retrying a 429 or 503, which these runs never receive",
  },
});
