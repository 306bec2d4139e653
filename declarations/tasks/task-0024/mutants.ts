// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches quote the connector's template literals word for word
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "bridge-ids-as-typed",
      mistake: "takes the bridge sheet's ids as typed (stray spaces, upper case, missing zero-padding), so misspelt links look unknown to both systems",
      patches: [{ file: "src/roster.ts", find: "  const id = raw.trim().toLowerCase();", replace: "  const id = raw;" }],
    },
    {
      id: "duplicate-links-kept",
      mistake: "keeps a link typed twice on the bridge sheet as two roster rows",
      patches: [{ file: "src/roster.ts", find: "links.set(`${link.application_id}|${link.placement_id}`, link);", replace: "links.set(String(links.size), link);" }],
    },
    {
      id: "tombstones-ignored",
      mistake: "never reads StaffLine's tombstones, so deleted applications count as never known and forgotten candidates still get correction notes",
      patches: [{ file: "src/main.ts", find: 'for (const t of await sl.listAll("/svc/tombstones")) {', replace: "for (const t of [] as Record<string, unknown>[]) {" }],
    },
    {
      id: "lost-note-resent",
      mistake: "sends a createNote whose answer was a 500 again without first checking whether StaffLine stored it",
      patches: [{ file: "src/main.ts", find: "    if (await hasNote(sl, candidate, text)) return;\n", replace: "" }],
    },
    {
      id: "note-not-looked-up",
      mistake: "writes the correction note without looking for one an earlier run already left, so every rerun notes the lagging candidates again",
      patches: [{ file: "src/main.ts", find: "  if (await hasNote(sl, candidate, text)) return;\n  for", replace: "  for" }],
    },
    {
      id: "ended-not-booked",
      mistake: "treats an ended placement as not booked, so StaffLine is taken as its authority: a recruiter who never moved the application to placed gets no note",
      patches: [{ file: "src/roster.ts", find: 'const BOOKED = new Set(["confirmed", "active", "ended"]);', replace: 'const BOOKED = new Set(["confirmed", "active"]);' }],
    },
    {
      id: "access-token-in-url",
      mistake: "puts PlaceMint's access token in the request URL (RFC 6750's access_token query parameter) as well as the header, where every access log keeps it",
      patches: [
        {
          file: "src/placemint.ts",
          find: "const res = await fetch(`${this.config.baseUrl}${path}`, {",
          replace: 'const res = await fetch(`${this.config.baseUrl}${path}${path.includes("?") ? "&" : "?"}access_token=${this.token}`, {',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the scenario arms a note 500 after commit, a placement 503 after commit, a revoked token and one 502 page (ATS_FAULTS, BOOK_FAULTS): neither vendor answers 429 or a StaffLine 503 here, so there is no Retry-After to honour",
    "shared-no-wait": "every armed fault is one-shot (a 500 and a 503 after commit, one 502 page, a revoked token): the immediate retry meets the replay or the next page, and nothing asks for a wait",
  },
});
