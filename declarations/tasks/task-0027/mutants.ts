// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches quote the connector's template literals word for word
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "applications-from-v2",
      mistake: "reads applications from the v2 list as the account manager suggested, which loses the first record of every page after the first",
      patches: [{ file: "src/main.ts", find: 'path: "/api/v1/applications"', replace: 'path: "/api/v2/applications"' }],
    },
    {
      id: "classic-rows-untyped",
      mistake: "carries the Classic job's rows over as Classic wrote them: numbers as digit strings and nulls as empty strings",
      patches: [{ file: "src/main.ts", find: "[id, own ? row : { ...row, data: typed(row.data) }]", replace: "[id, row]" }],
    },
    {
      id: "classic-state-ignored",
      mistake: "the first sync ignores the Classic job's watermark and files and reads everything again",
      patches: [{ file: "src/main.ts", find: "own?.watermark ?? readJson<ClassicState>(config.outputDir, CLASSIC_STATE)?.watermark ?? null", replace: "own?.watermark ?? null" }],
    },
    {
      id: "app-token-kept",
      mistake: "the new client still sends the Classic app token header next to the OAuth bearer token",
      patches: [
        {
          file: "src/bullpen.ts",
          find: 'headers: { Authorization: `Bearer ${this.token}`, Accept: "application/json" }',
          replace: 'headers: { Authorization: `Bearer ${this.token}`, Accept: "application/json", "X-Bullpen-App-Token": this.config.appToken }',
        },
      ],
    },
    {
      id: "deletions-ignored",
      mistake: "never reads Bullpen's deleted-records feed, so records deleted since the Classic job last finished stay in the files as live",
      patches: [{ file: "src/main.ts", find: 'const deletions = await client.listAll("/api/v2/deleted-records", since);', replace: "const deletions: Record<string, unknown>[] = [];" }],
    },
    {
      id: "watermark-host-clock",
      mistake: "the sync's watermark is the host's clock at the end of the run, not Bullpen's X-Bullpen-Server-Time",
      patches: [
        {
          file: "src/main.ts",
          find: "writeJson(config.outputDir, SYNC_STATE, { watermark: client.serverTime });",
          replace: "writeJson(config.outputDir, SYNC_STATE, { watermark: new Date().toISOString() });",
        },
      ],
    },
    {
      id: "changed-records-appended",
      mistake: "a catch-up appends each changed record as a new row instead of replacing the row the file already has for it",
      patches: [
        {
          file: "src/main.ts",
          find: "for (const item of items) rows.set(String(item.id), toRow(item));",
          replace: "for (const item of items) rows.set(rows.has(String(item.id)) ? `${item.id}#${rows.size}` : String(item.id), toRow(item));",
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "Bullpen's 429s carry no Retry-After header (bp-cutover-429 is retryAfter: body, the vendor's declared lie): the generator only blanks the header read, and the wait still comes from the body's error.retry_after_seconds",
  },
});
