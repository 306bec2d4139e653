import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "fee-bps-read-as-percent",
      mistake: "follows Rahul's notes and reads the agency fee in basis points as a percentage (divides by 100, not 10000), so every fee is a hundred times too big",
      patches: [{ file: "src/fees.ts", find: "const den = 1_000_000;", replace: "const den = 10_000;" }],
    },
    {
      id: "fee-truncated-to-cents",
      mistake: "truncates the fee to whole cents instead of rounding to the nearest cent with halves up",
      patches: [{ file: "src/fees.ts", find: "return Math.floor((2 * num + den) / (2 * den));", replace: "return Math.floor(num / den);" }],
    },
    {
      id: "mobile-minutes-read-as-decimals",
      mistake: "reads the mobile app's hours and minutes (37:30) as decimal hours (37.30)",
      patches: [{ file: "src/fees.ts", find: "return Number(hm[1]) * 100 + (minutes * 100) / 60;", replace: "return Number(hm[1]) * 100 + minutes;" }],
    },
    {
      id: "unapproved-timesheets-counted",
      mistake: "believes Rahul that approvers sort out disputes before the export: every timesheet's hours count, pending and rejected ones included",
      patches: [{ file: "src/main.ts", find: 'if (t.Status.trim() === "approved" && inQuarter(t["Week ending"]))', replace: 'if (inQuarter(t["Week ending"]))' }],
    },
    {
      id: "quarter-not-filtered",
      mistake: "believes Rahul that the export holds only the quarter: timesheets whose week ends outside Q1 count too",
      patches: [{ file: "src/main.ts", find: 'if (t.Status.trim() === "approved" && inQuarter(t["Week ending"]))', replace: 'if (t.Status.trim() === "approved")' }],
    },
    {
      id: "fee-export-read-comma-separated",
      mistake: "reads the fee statement export as comma-separated like everything else (Rahul's notes), though PlaceMint writes it with semicolons, so no placement is found in it",
      patches: [{ file: "src/main.ts", find: 'parseCsv(text, ";")', replace: 'parseCsv(text, ",")' }],
    },
    {
      id: "placement-ids-taken-verbatim",
      mistake:
        "takes Tallybook's Placement as written, so a timesheet that names its placement without the leading zeros (plc_7) is reported not_in_book and its hours are missing from the placement's fee",
      patches: [{ file: "src/main.ts", find: "const id = placementId(t.Placement);", replace: "const id = t.Placement.trim();" }],
    },
    {
      id: "cut-body-not-retried",
      mistake: "retries a request whose connection drops before the answer, but reads the body outside the retry, so an answer cut off mid-body (the export's status read) ends the close",
      patches: [{ file: "src/placemint.ts", find: "await res.text().catch(() => null)", replace: "await res.text()", count: 2 }],
    },
  ],
  equivalent: {},
});
