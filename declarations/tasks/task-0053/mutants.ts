// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

const CSV = "src/csv.ts";
const MAIN = "src/main.ts";

export default defineMutants({
  mutants: [
    {
      id: "doubled-quotes-kept",
      mistake: "reads a quoted export field but keeps its doubled quotes doubled, so a reason with a quotation mark is not as typed",
      patches: [{ file: CSV, find: "        field += '\"';", replace: "        field += '\"\"';" }],
    },
    {
      id: "book-quotes-not-doubled",
      mistake: "quotes a book field that needs it but does not double the quotes inside, so the invoice run reads a different reason",
      patches: [{ file: CSV, find: '`"${value.replace(/"/g, \'""\')}"`', replace: '`"${value}"`' }],
    },
    {
      id: "book-line-breaks-unquoted",
      mistake: "quotes a book field only when it holds a comma, so a reason with a line break or a quotation mark breaks the book's records",
      patches: [{ file: CSV, find: '/[",\\r\\n]/.test(value)', replace: "/,/.test(value)" }],
    },
    {
      id: "reason-line-breaks-flattened",
      mistake: "flattens the line breaks inside a quoted reason to spaces, so a multi-line reason is not as the account manager typed it",
      patches: [{ file: CSV, find: "      else field += ch;", replace: '      else field += ch === "\\n" || ch === "\\r" ? " " : ch;' }],
    },
    {
      id: "last-row-wins",
      mistake: "takes the export as written in recorded order and keeps each placement's last row, so a back-dated adjustment listed after the newest one wins",
      patches: [{ file: MAIN, find: "inForce.set(adj.placement_id, held ? newer(held, adj) : adj);", replace: "inForce.set(adj.placement_id, adj);" }],
    },
    {
      id: "same-instant-keeps-first",
      mistake: "of two adjustments recorded at the same instant keeps the one read first instead of the one with the higher adjustment id",
      patches: [{ file: MAIN, find: "return a.adjustment_id > b.adjustment_id ? a : b;", replace: "return a;" }],
    },
    {
      id: "recorded-read-by-date-parse",
      mistake:
        "reads the export's `Recorded` with Date.parse as if it were the API's ISO timestamp, so a day-first `DD/MM/YYYY` is read month first or not at all and a back-dated adjustment is taken as the newest",
      patches: [
        { file: MAIN, find: "const ta = recordedMs(a.recorded);", replace: "const ta = Date.parse(a.recorded);" },
        { file: MAIN, find: "const tb = recordedMs(b.recorded);", replace: "const tb = Date.parse(b.recorded);" },
      ],
    },
    {
      id: "recorded-compared-as-text",
      mistake: "compares the export's `Recorded` values as strings, so a day-first date of an earlier month with a later day sorts after the newest adjustment",
      patches: [
        { file: MAIN, find: "const ta = recordedMs(a.recorded);", replace: "const ta = a.recorded as unknown as number;" },
        { file: MAIN, find: "const tb = recordedMs(b.recorded);", replace: "const tb = b.recorded as unknown as number;" },
      ],
    },
    {
      id: "token-minted-per-request",
      mistake: "mints a new access token for every request instead of reusing one until PlaceMint refuses it",
      patches: [{ file: "src/placemint.ts", find: "this.token ??= await this.mint();", replace: "this.token = await this.mint();" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored": "the morning's only fault is a revoked token (a 401); the book's few requests never meet a 429 or 503, so there is no Retry-After to honour",
    "shared-no-wait":
      "no request fails but the one refused for its revoked token, retried with a fresh token without a pause in gold too; the export turns ready after a number of polls, not of seconds, so polling without a pause gets the same file",
  },
});
