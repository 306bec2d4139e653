/**
 * The litigation holds Legal sends (`repo/holds.csv`): report ids and the matter
 * each is held for, typed up by hand from three spreadsheets. Most are real
 * reports of the tenant; a dozen are typos Legal copied wrong and Vettly has
 * never issued. Some ids are written another way than Vettly writes them (the
 * leading zeros dropped, in capitals, with stray spaces), and a few reports are
 * listed a second time, further down, as the third spreadsheet had them. The
 * judge reads this list, never the connector's copy of the file (`holds.test.ts`
 * keeps the two the same).
 */
const MATTERS = ["Okafor v. Harrowgate Health", "EEOC charge 531-2025-00417", "Delgado v. Harrowgate Health", "State Board inquiry HB-2291", "Whitman class action"];
const TYPOS = [913, 1044, 808, 977, 1203, 860, 999, 1111, 789, 1500, 870, 951];
const reportId = (n: number) => `rpt_${String(n).padStart(6, "0")}`;

export interface Hold {
  /** The report's id as Vettly writes it. */
  report_id: string;
  matter: string;
}

/** Each report held, once, by Vettly's id. */
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

const number = (id: string) => Number(id.slice("rpt_".length));

/** How the n-th hold's id was typed into the file. */
function typedFirst(id: string, n: number): string {
  if (n % 23 === 5) return `rpt_${number(id)}`;
  if (n % 29 === 11) return id.toUpperCase();
  if (n % 31 === 3) return ` ${id} `;
  return id;
}

/** How the third spreadsheet had a report listed again. */
function typedAgain(id: string, n: number): string {
  return n % 2 === 0 ? `RPT_${number(id)}` : id;
}

/** The file's lines in order: every hold, then the holds a later spreadsheet listed again. */
export function holdLines(): Hold[] {
  const all = holds();
  const first = all.map((h, n) => ({ report_id: typedFirst(h.report_id, n), matter: h.matter }));
  const again = all.flatMap((h, n) => (n % 41 === 17 ? [{ report_id: typedAgain(h.report_id, n), matter: h.matter }] : []));
  return [...first, ...again];
}

/** The file as Legal sends it. */
export function holdsCsv(): string {
  return `report_id,matter\n${holdLines()
    .map((h) => `${h.report_id},"${h.matter}"`)
    .join("\n")}\n`;
}
