import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "short-ids-not-padded",
      mistake: "normalises the case of a typed report id but keeps its digits as typed, so rpt_6 is asked for and archived as rpt_6, not Vettly's rpt_000006",
      patches: [{ file: "src/main.ts", find: 'String(Number(m[1])).padStart(6, "0")', replace: "m[1]" }],
    },
    {
      id: "upper-case-ids-kept",
      mistake: "reads a report id as Vettly's only when typed in lower case, so RPT_000011 is asked for and archived as typed",
      patches: [{ file: "src/main.ts", find: "const m = /^rpt_(\\d+)$/i.exec(typed.trim());", replace: "const m = /^rpt_(\\d+)$/.exec(typed.trim());" }],
    },
    {
      id: "duplicate-holds-archived-twice",
      mistake: "writes a line for every line of holds.csv, so a report held twice (or typed two ways) is archived twice",
      patches: [
        { file: "src/main.ts", find: "const out = new Map<string, string>();", replace: "const out = new Map<string, string>();\n  const all: [string, string][] = [];" },
        { file: "src/main.ts", find: 'if (!out.has(id)) out.set(id, (m[2] ?? m[3] ?? "").replace(/""/g, \'"\'));', replace: 'all.push([id, (m[2] ?? m[3] ?? "").replace(/""/g, \'"\')]);' },
        { file: "src/main.ts", find: "return [...out].map(", replace: "return all.map(" },
      ],
    },
    {
      id: "counts-kept-as-text",
      mistake: "writes every field as the text ScreeningXml sends, so checks_included is a string where Vettly documents an integer",
      patches: [{ file: "src/main.ts", find: 'const INTEGER_FIELDS = new Set(["checks_included"]);', replace: "const INTEGER_FIELDS = new Set<string>([]);" }],
    },
    {
      id: "nil-read-as-empty-text",
      mistake: 'reads an element marked xsi:nil as empty text, so a report without an adjudication is archived with "" instead of null',
      patches: [{ file: "src/screening-xml.ts", find: 'out[name] = attrs && /xsi:nil="(true|1)"/.test(attrs) ? null : decode(body ?? "");', replace: 'out[name] = decode(body ?? "");' }],
    },
    {
      id: "refused-refresh-is-fatal",
      mistake: "believes the docs that a refresh chain slides for ever: when Vettly refuses the refresh token at the chain's end the run fails instead of starting a new chain with a fresh grant",
      patches: [
        { file: "src/screening-xml.ts", find: "console.error(`refresh refused (", replace: "throw new Error(`refresh refused (" },
        { file: "src/screening-xml.ts", find: "); starting a new token chain`);", replace: ")`);" },
      ],
    },
    {
      id: "unknown-ids-checked-over-rest",
      mistake: "double-checks each id ScreeningXml does not know against Vettly's REST reports endpoint, though the reports must be read through ScreeningXml only",
      patches: [
        {
          file: "src/main.ts",
          find: 'lines.push(JSON.stringify({ report_id: h.report_id, matter: h.matter, status: "not_found", report: null }));',
          replace:
            'await fetch(process.env.VETTLY_BASE_URL + "/v1/reports/" + encodeURIComponent(h.report_id), { headers: { Authorization: "Bearer " + (client as unknown as { access: string }).access } });\n      lines.push(JSON.stringify({ report_id: h.report_id, matter: h.matter, status: "not_found", report: null }));',
        },
      ],
    },
  ],
  equivalent: {},
});
