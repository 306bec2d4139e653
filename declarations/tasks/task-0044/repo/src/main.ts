import { loadConfig } from "./config.ts";
import { CrewCallClient } from "./crewcall.ts";
import { writeReport, type ReportRow } from "./report.ts";
import { readSheet } from "./sheet.ts";

/** Sets up the sheet's new starters, books and confirms every line, writes the report. */
async function topup(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const sheet = readSheet();
  const roster = new Set((await client.all("/partner/v1/workers")).map((w) => String(w.id)));

  // New starters: one bulk call for every line without a number.
  const starters = sheet.filter((l) => !l.crewcall_no);
  const created = new Map<number, string>();
  if (starters.length) {
    const res = await client.post<{ results: { index: number; status: number; id?: number }[] }>("/partner/v1/workers/bulk", {
      workers: starters.map((l) => ({
        first_name: l.first_name,
        last_name: l.last_name,
        email: l.email,
        mobile: l.mobile,
        home_zone: l.home_zone,
        primary_role: l.role.toLowerCase().replace(/ /g, "_"),
      })),
    });
    for (const r of res.results) if (r.status === 201) created.set(starters[r.index].line, String(r.id));
  }

  const report: ReportRow[] = [];
  for (const l of sheet) {
    const worker = l.crewcall_no ? l.crewcall_no : created.get(l.line);
    if (!worker || (l.crewcall_no && !roster.has(worker))) {
      report.push({ line: l.line, gig_id: l.gig_id, worker_id: "", assignment_id: "", status: "unknown_worker" });
      continue;
    }
    const offer = await client.post<{ id: number }>("/partner/v1/assignments", { gig_id: Number(l.gig_id), worker_id: Number(worker) });
    await client.post(`/partner/v1/assignments/${offer.id}/confirmation`, { status: "confirmed" });
    report.push({ line: l.line, gig_id: l.gig_id, worker_id: worker, assignment_id: String(offer.id), status: "booked" });
  }
  writeReport(config.outputDir, report);
  console.error(`topup: ${report.filter((r) => r.status === "booked").length} of ${report.length} lines booked`);
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { topup };
if (!commands[command]) {
  console.error("usage: node src/main.ts topup");
  process.exit(2);
}
commands[command]().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
