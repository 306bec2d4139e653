// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

const CLIENT = "src/crewcall.ts";
const MAIN = "src/main.ts";

export default defineMutants({
  mutants: [
    {
      id: "workers-merged-by-phone",
      mistake: "keeps the HR lead's old rule and counts workers sharing a mobile number once, though CrewCall counts (and invoices) every worker record",
      patches: [{ file: "src/roster.ts", find: "  return String(w.id);", replace: '  return typeof w.mobile === "string" && w.mobile ? `tel:${w.mobile}` : String(w.id);' }],
    },
    {
      id: "reranked-head-not-reread",
      mistake: "drops the records an offset crawl meets twice but never reads the head again, so the workers that moved ahead of the offset are missed",
      patches: [{ file: CLIENT, find: "if (twice > 0) {", replace: "if (twice < 0) {" }],
    },
    {
      id: "failed-page-read-as-empty",
      mistake: "takes a page that answered 5xx as an empty last page instead of asking for it again, so a bad minute costs the census workers",
      patches: [
        {
          file: CLIENT,
          find: "const retryable = res.status === 429 || res.status >= 500;",
          replace: "if (res.status >= 500) return { records: [] } as T;\n      const retryable = res.status === 429;",
        },
      ],
    },
    {
      id: "deletions-feed-never-read",
      mistake: "reads only the changed workers on a later run, never the deletions feed, so a worker CrewCall deleted stays counted",
      patches: [{ file: MAIN, find: "const deleted = state.since === null ? [] : await client.list(DELETIONS, state.since);", replace: "const deleted: { id: unknown; object?: unknown }[] = [];" }],
    },
    {
      id: "watermark-from-host-clock",
      mistake: "stores the host's clock as the next run's changed_since instead of CrewCall's own time, so changes stamped by CrewCall's clock are skipped",
      patches: [{ file: MAIN, find: "state.since = client.serverTimeAtStart ?? state.since;", replace: "state.since = new Date().toISOString();" }],
    },
    {
      id: "page-size-param-renamed",
      mistake: "believes the changelog's rename of limit to page_size: CrewCall ignores it and serves 25-record pages, which the job takes for the last page",
      patches: [{ file: CLIENT, find: "limit: String(PAGE_SIZE)", replace: "page_size: String(PAGE_SIZE)" }],
    },
    {
      id: "full-recrawl-every-night",
      mistake: "never sends changed_since, so every later run crawls the whole roster again instead of what changed",
      patches: [{ file: CLIENT, find: "if (since) params.changed_since = since;", replace: "" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "neither night declares a throttling fault and the census's reads (200-record pages) stay far below CrewCall's 240-request window, so no 429 is ever answered: gold's run has no retry_after_honored check to record",
    "shared-no-wait":
      "the only error answers are the one 502 on the night's first page of workers (times: 1); the retry gets the page whether it comes at once or after a pause, and nothing is retried more than once",
  },
});
