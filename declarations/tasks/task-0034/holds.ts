/**
 * The litigation holds Legal sends (`repo/holds.csv`): report ids and the matter
 * each is held for. Most are real reports of the tenant; a dozen are typos Legal
 * copied wrong and Vettly has never issued. The judge reads this list, never the
 * connector's copy of the file (`holds.test.ts` keeps the two the same).
 */
const MATTERS = ["Okafor v. Harrowgate Health", "EEOC charge 531-2025-00417", "Delgado v. Harrowgate Health", "State Board inquiry HB-2291", "Whitman class action"];
const TYPOS = [913, 1044, 808, 977, 1203, 860, 999, 1111, 789, 1500, 870, 951];
const reportId = (n: number) => `rpt_${String(n).padStart(6, "0")}`;

export interface Hold {
  report_id: string;
  matter: string;
}

export function holds(): Hold[] {
  const ids: string[] = [];
  let typo = 0;
  for (let i = 1; i <= 750; i++) {
    if (i % 15 === 0) continue;
    ids.push(reportId(i));
    if (i % 60 === 7 && typo < TYPOS.length) ids.push(reportId(TYPOS[typo++]));
  }
  while (typo < TYPOS.length) ids.push(reportId(TYPOS[typo++]));
  return ids.map((report_id, n) => ({ report_id, matter: MATTERS[(n * 7) % MATTERS.length] }));
}

/** The file as Legal sends it. */
export function holdsCsv(): string {
  return `report_id,matter\n${holds()
    .map((h) => `${h.report_id},"${h.matter}"`)
    .join("\n")}\n`;
}
