// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "sourcewell-id-taken-as-typed",
      mistake: "looks profiles up by `sourcewell_id` exactly as the agency typed it (' tl_00002 ', 'tl_6'), so rows with a loosely copied id name nobody",
      patches: [{ file: "src/signups.ts", find: "    const id = canonicalId(s.sourcewell_id);", replace: "    const id = s.sourcewell_id;" }],
    },
    {
      id: "email-matched-case-sensitively",
      mistake: "matches a row's email to Sourcewell's as typed, so an email the agency capitalised names nobody",
      patches: [{ file: "src/signups.ts", find: "  const email = s.email.trim().toLowerCase();", replace: "  const email = s.email.trim();" }],
    },
    {
      id: "email-from-the-file",
      mistake: "gives the worker the email the agency typed on the row instead of the Sourcewell profile's",
      patches: [{ file: "src/main.ts", find: "      email: profile.em,", replace: "      email: row.email.trim() || profile.em," }],
    },
    {
      id: "role-as-typed",
      mistake: "sends the role as the agency wrote it ('Forklift operator') instead of CrewCall's `forklift_operator`",
      patches: [{ file: "src/main.ts", find: "      primary_role: roleOf(row.role),", replace: "      primary_role: row.role," }],
    },
    {
      id: "idempotency-key-per-attempt",
      mistake: "makes a new Idempotency-Key for every attempt of a create, so a create CrewCall stored before answering 502 is stored again on the retry",
      patches: [
        {
          file: "src/http.ts",
          find: "      const res = await fetch(url, init);",
          replace:
            '      const headers = { ...(init.headers as Record<string, string>) };\n      if (headers["Idempotency-Key"]) headers["Idempotency-Key"] = `${headers["Idempotency-Key"]}-${attempt}`;\n      const res = await fetch(url, { ...init, headers });',
        },
      ],
    },
    {
      id: "rerun-forgets-created-workers",
      mistake: "keeps no record of the workers a run created and keys each create with a fresh UUID, so a rerun of the same file creates everyone again",
      patches: [
        { file: "src/main.ts", find: 'existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : {};', replace: "{};" },
        { file: "src/main.ts", find: "`harbour-signup-${profile.id}`", replace: "crypto.randomUUID()" },
      ],
    },
    {
      id: "first-row-wins",
      mistake: "takes role and zone from the person's first row instead of their latest row by `signed_up`",
      patches: [
        {
          file: "src/main.ts",
          find: "    if (!had || signedUpAt(signups[i]) > signedUpAt(had.row)) latest.set(p.id, { profile: p, row: signups[i] });",
          replace: "    if (!had) latest.set(p.id, { profile: p, row: signups[i] });",
        },
      ],
    },
    {
      id: "last-row-in-file-wins",
      mistake: "takes role and zone from the person's last row in the file, as if the agency's file were in `signed_up` order, so a sign-up typed in late overrides a later one",
      patches: [
        {
          file: "src/main.ts",
          find: "    const had = latest.get(p.id);\n    if (!had || signedUpAt(signups[i]) > signedUpAt(had.row)) latest.set(p.id, { profile: p, row: signups[i] });",
          replace: "    // The file is in sign-up order: a person's last row is their latest.\n    latest.set(p.id, { profile: p, row: signups[i] });",
        },
      ],
    },
    {
      id: "signed-up-compared-as-text",
      mistake:
        "orders a person's rows by `signed_up` as text, though the agency types an hour before ten without its zero, so '2025-01-07 8:20' reads as later than '2025-01-07 13:05' and the earlier row's role and zone win",
      patches: [
        {
          file: "src/main.ts",
          find: "    if (!had || signedUpAt(signups[i]) > signedUpAt(had.row)) latest.set(p.id, { profile: p, row: signups[i] });",
          replace: "    if (!had || signups[i].signed_up.trim() > had.row.signed_up.trim()) latest.set(p.id, { profile: p, row: signups[i] });",
        },
      ],
    },
    {
      id: "signed-up-parsed-as-iso",
      mistake:
        "reads `signed_up` by turning it into ISO 8601 ('2025-01-07T8:20:00Z'), which is no date when the agency drops an hour's zero, so that row never orders against the others and the wrong row's role and zone win",
      patches: [
        {
          file: "src/signups.ts",
          find: "  const m = /^\\s*(\\d{4})-(\\d{1,2})-(\\d{1,2})[T\\s]+(\\d{1,2}):(\\d{2})\\s*$/.exec(s.signed_up);\n  if (!m) throw new Error(`signed_up ${JSON.stringify(s.signed_up)} is not a date and time`);\n  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) / 60_000;",
          replace: '  return Date.parse(`${s.signed_up.trim().replace(" ", "T")}:00Z`);',
        },
      ],
    },
    {
      id: "mobile-when-email-matches-nobody",
      mistake: "falls back to the row's mobile when its email matches no profile, so a row whose email names nobody is imported as whoever owns the number the person left at the desk",
      patches: [
        {
          file: "src/signups.ts",
          find: '  if (email) return profiles.find((p) => (p.em ?? "").toLowerCase() === email) ?? null;',
          replace: '  const byEmail = email ? profiles.find((p) => (p.em ?? "").toLowerCase() === email) : undefined;\n  if (byEmail) return byEmail;',
        },
      ],
    },
    {
      id: "one-page-of-profiles",
      mistake: "believes the docs that `lim` takes up to 500 and reads one page of talent profiles, so the newest profiles, past the 100 a page really holds, name nobody",
      patches: [
        { file: "src/sourcewell.ts", find: 'let next: string | undefined = "/v3/talent?lim=100";', replace: 'let next: string | undefined = "/v3/talent?lim=500";' },
        { file: "src/sourcewell.ts", find: "    next = page.d.length ? page._links?.next?.href : undefined;", replace: "    next = undefined;" },
      ],
    },
    {
      id: "mobile-matched-as-typed",
      mistake: "matches a row's mobile to Sourcewell's character for character, so a number typed with spaces, brackets or dashes names nobody",
      patches: [{ file: "src/signups.ts", find: "  const mobile = digits(s.mobile);", replace: "  const mobile = s.mobile.trim();" }],
    },
    {
      id: "email-trusted-over-id",
      mistake: "looks a row up by its email whenever it has one and by `sourcewell_id` only when the email is blank, though the id is what names the profile",
      patches: [{ file: "src/signups.ts", find: "  if (s.sourcewell_id.trim()) {", replace: "  if (s.sourcewell_id.trim() && !s.email.trim()) {" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the only fault armed is one 502 after commit on the first createWorker, which carries no Retry-After, and the import makes a few dozen requests, far below Sourcewell's 150-request window, so no 429 or 503 ever arrives (retry_after_honored is not recorded for gold)",
    "shared-no-wait":
      "the only failure the scenario sends is one 502 on the first createWorker; gold retries it once under the same Idempotency-Key and gets the stored worker back, so dropping the 50 ms pause before that single retry changes nothing and no endpoint is hit again while failing",
  },
});
