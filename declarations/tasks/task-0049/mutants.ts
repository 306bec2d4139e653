// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

const LEDGER = "src/ledger.ts";

export default defineMutants({
  mutants: [
    {
      id: "offset-crawl-trusted",
      mistake: "reads the shifts list in one offset crawl and trusts it, though the rota moves under the crawl and shifts are stepped over",
      patches: [{ file: "src/rosterly.ts", find: "if (byId.size >= total) return [...byId.values()];", replace: "return [...byId.values()];" }],
    },
    {
      id: "one-night-for-every-venue",
      mistake: "takes 26 October as every venue's night, so the American venues get an ordinary night instead of the one their clocks go back",
      patches: [{ file: LEDGER, find: "const night = fallBackNight(venue.venue_tz);", replace: 'const night = "2025-10-26";' }],
    },
    {
      id: "hours-walked-on-the-wall-clock",
      mistake: "lists the night's hours as the clock labels 00:00 to 05:00, so the hour the clock showed twice gets one row",
      patches: [
        {
          file: LEDGER,
          find: "for (let t = from; t < to; t += HOUR) {",
          replace: "for (const t of [0, 1, 2, 3, 4, 5].map((h) => instantOf(`${night}T0${h}:00`, venue.venue_tz))) {",
        },
      ],
    },
    {
      id: "shift-start-read-on-venue-clock",
      mistake: "reads a shift's start on its venue's clock instead of the time zone written on the shift (head office rosters in its own zone)",
      patches: [
        {
          file: LEDGER,
          find: "const start = instantOf(s.starts_at, s.venue_tz);",
          replace: "const start = instantOf(s.starts_at, venues.find((v) => v.id === s.venue_id)?.venue_tz ?? s.venue_tz);",
        },
      ],
    },
    {
      id: "repeated-start-read-as-second",
      mistake: "resolves a start the clock showed twice to the second of the two moments, not the first the rota editor offers",
      patches: [{ file: "src/local-time.ts", find: "if (shown.length) return Math.min(...shown);", replace: "if (shown.length) return Math.max(...shown);" }],
    },
    {
      id: "draft-shifts-counted",
      mistake: "counts every shift that is not deleted, drafts that never reached the floor included",
      patches: [{ file: LEDGER, find: ".filter((s) => !s.deleted && ON_FLOOR.has(s.status))", replace: ".filter((s) => !s.deleted)" }],
    },
    {
      id: "shift-ending-on-the-hour-counted",
      mistake: "counts a shift that ends exactly as the hour begins, or starts exactly as it ends, as running during that hour",
      patches: [{ file: LEDGER, find: "s.start < t + HOUR && s.end > t", replace: "s.start <= t + HOUR && s.end >= t" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the scenario's only fault is the shifts list drifting under the crawl; it declares no throttling or maintenance, and the ledger's few pages stay far below Rosterly's 300-request window, so no 429 or 503 with Retry-After is ever answered",
    "shared-no-wait": "gold waits only before retrying a 429 or a 5xx, and the scenario answers neither (its only fault is the list drifting), so no wait is ever taken",
  },
});
