import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "reference-taken-as-typed",
      mistake: "believes the notes that placement_ref is copied from PlaceMint's screen and looks it up as typed, so plc-123 or PLC 000123 names no placement",
      patches: [{ file: "src/board.ts", find: "if (!m) return null;", replace: "if (!m) return null;\n  if (m) return ref.trim();" }],
    },
    {
      id: "reference-zeros-not-padded",
      mistake: "keeps the reference's digits as typed instead of writing PlaceMint's six-digit id, so plc-123 looks for plc_123",
      patches: [{ file: "src/board.ts", find: 'n.padStart(6, "0")', replace: "m[1]" }],
    },
    {
      id: "deleted-taken-as-never-had",
      mistake: "believes the notes that a deleted placement leaves PlaceMint's lists: it drops the deleted ones, so a deleted placement is reported not_in_book",
      patches: [{ file: "src/main.ts", find: "const rows = census(board, book);", replace: "const rows = census(board, book.filter((p) => !p.deleted));" }],
    },
    {
      id: "duplicates-by-typed-reference",
      mistake: "spots duplicates on the board by the reference as typed, so two rows naming the same placement in different spellings are both judged",
      patches: [
        { file: "src/census.ts", find: "const named = new Set<string>();", replace: "const named = new Set<string>();\n  const typed = new Set<string>();" },
        { file: "src/census.ts", find: "if (id && named.has(id)) finding", replace: "if (id && typed.has(row.placement_ref.trim())) finding" },
        { file: "src/census.ts", find: "if (id) named.add(id);", replace: "if (id) named.add(id);\n    typed.add(row.placement_ref.trim());" },
      ],
    },
    {
      id: "failed-page-ends-the-read",
      mistake: "takes a page that answers 5xx for the end of the list and writes the census from the pages it read",
      patches: [
        { file: "src/placemint.ts", find: "if ((!res || res.status >= 500) && failures < 5) {", replace: "if ((!res || res.status >= 500) && failures < 0) {" },
        {
          file: "src/placemint.ts",
          find: 'const text = res ? await res.text() : "";',
          replace: 'if (res && res.status >= 500 && method === "GET") return { results: [], count: 0, next_offset: null } as T;\n      const text = res ? await res.text() : "";',
        },
      ],
    },
    {
      id: "orphans-flagged-in-book",
      mistake: "flags each booked placement missing from the board with a note in PlaceMint, though the census must only read PlaceMint",
      patches: [
        {
          file: "src/main.ts",
          find: "const rows = census(board, book);",
          replace:
            'const rows = census(board, book);\n  for (const r of rows) if (r.finding === "not_on_board") await client.request("POST", "/v2/notes", { placement_id: r.placement_id, body: "Not on the desk board (Friday census)", author: "Friday census", visibility: "agency" });',
        },
      ],
    },
  ],
  equivalent: {},
});
