// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches quote the connector's template literals word for word
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "watermark-host-clock",
      mistake: "the watermark is the host's clock at the end of the sync, not Vettly's X-Vettly-Server-Time, so changes on Vettly's clock are missed",
      patches: [{ file: "src/main.ts", find: "writeState(config.outputDir, { watermark: client.serverTime });", replace: "writeState(config.outputDir, { watermark: new Date().toISOString() });" }],
    },
    {
      id: "watermark-saved-on-stop",
      mistake: "saves the watermark when a sync stops for maintenance, so what the stopped night left unread is never read",
      patches: [
        {
          file: "src/main.ts",
          find: "      process.exit(3);",
          replace: "      if (client.serverTime) writeState(config.outputDir, { watermark: client.serverTime });\n      process.exit(3);",
        },
      ],
    },
    {
      id: "purges-ignored",
      mistake: "never reads Vettly's purge feed, so purged records stay in the mirror as live",
      patches: [{ file: "src/main.ts", find: 'const purges = await client.listAll("/v1/purges", since);', replace: "const purges: Record<string, unknown>[] = [];" }],
    },
    {
      id: "full-reread-every-night",
      mistake: "never sends modified_since: every sync re-reads every subject, check and report",
      patches: [{ file: "src/vettly.ts", find: "          if (since) query.modified_since = since;\n", replace: "" }],
    },
    {
      id: "every-503-is-maintenance",
      mistake: "takes every 503 for a maintenance window and stops, even when Vettly asks for only a few seconds",
      patches: [{ file: "src/vettly.ts", find: "if (waitS > LONGEST_WAIT_S) throw", replace: "if (res.status === 503 || waitS > LONGEST_WAIT_S) throw" }],
    },
    {
      id: "dropped-body-fatal",
      mistake: "treats a connection that drops half-way through a page's body as fatal instead of asking for the page again",
      patches: [{ file: "src/vettly.ts", find: "        if (attempt >= 3) throw err;", replace: "        throw err;" }],
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
    {
      id: "moved-list-trusted",
      mistake:
        "keys each page's records by id and never notices a record coming back on a later page, so a list that moved under the crawl is taken as read and the checks it pushed past the crawl are missed",
      patches: [{ file: "src/vettly.ts", find: "            if (items.has(String(item.id))) repeats += 1;\n", replace: "" }],
    },
  ],
});
