// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches quote the connector's template literals word for word
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "last-contact-first-in-feed",
      mistake: "believes the runbook that the notes feed is newest first: a placement's last contact is the first of its notes the feed shows, not the newest",
      patches: [
        {
          file: "src/sweep.ts",
          find: "if (!have || t > Date.parse(have.created_at) || (t === Date.parse(have.created_at) && n.id > have.id)) last.set(n.placement_id, n);",
          replace: "if (!have) last.set(n.placement_id, n);",
        },
      ],
    },
    {
      id: "single-pass-crawl",
      mistake: "trusts one crawl of PlaceMint's offset pages while consultants write notes, so notes that shift between pages are missed",
      patches: [{ file: "src/placemint.ts", find: "if (seen.size >= count) return [...seen.values()];", replace: "return [...seen.values()];" }],
    },
    {
      id: "chase-date-reformatted",
      mistake: "writes the last contact's time into the chase note re-rendered as an ISO string with milliseconds, not exactly as PlaceMint gives it",
      patches: [
        {
          file: "src/sweep.ts",
          find: "`Chase-up: no contact since ${last.created_at}.`",
          replace: "`Chase-up: no contact since ${new Date(last.created_at).toISOString()}.`",
        },
      ],
    },
    {
      id: "own-chases-not-contact",
      mistake: "leaves the desk's own chase-up notes out of the last contact, so a rerun chases every placement chased before once more",
      patches: [{ file: "src/sweep.ts", find: "    if (n.deleted) continue;", replace: '    if (n.deleted || (n as { author?: string }).author === "Delivery desk") continue;' }],
    },
    {
      id: "lost-answer-not-filed",
      mistake: "takes a chase-up POST that answers 500 as not filed: it is not retried and the placement is reported without a chase note, though PlaceMint committed it",
      patches: [
        { file: "src/placemint.ts", find: "if ((!res || res.status >= 500) && failures < 5) {", replace: 'if ((!res || res.status >= 500) && failures < 5 && method === "GET") {' },
        {
          file: "src/main.ts",
          find: '        { "Idempotency-Key": `corvane-chase-${p.id}-${note?.id ?? "none"}` },\n      );\n      chaseId = created.id;',
          replace:
            '        { "Idempotency-Key": `corvane-chase-${p.id}-${note?.id ?? "none"}` },\n      ).catch((err) => {\n        console.error(`chase of ${p.id} failed: ${err}`);\n        return null;\n      });\n      chaseId = created?.id ?? null;',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored": "the sweep arms only page drift, token revocation and one 500 after commit (SWEEP_FAULTS): PlaceMint never answers 429 here, so there is no Retry-After to honour",
    "shared-no-wait":
      "the only retried failures are one 500 after commit (answered by the idempotent replay on the immediate retry) and a revoked token (re-minted at once either way); no 429 or lasting outage is armed, so dropping the waits changes nothing",
  },
});
