/** The close's arithmetic (PROBLEM.md, "The rule"), in integers. */

/**
 * A timesheet's time as hundredths of an hour. Tallybook's web app writes decimal hours with at
 * most two decimals (`37.5`), its mobile app hours and minutes (`37:30`).
 */
export function hundredths(hours: string): number {
  const hm = /^\s*(\d+):([0-5]\d)\s*$/.exec(hours);
  if (hm) {
    const minutes = Number(hm[2]);
    if ((minutes * 100) % 60) throw new Error(`${JSON.stringify(hours)} is not a whole number of hundredths of an hour`);
    return Number(hm[1]) * 100 + (minutes * 100) / 60;
  }
  const m = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(hours);
  if (!m) throw new Error(`not a number of hours: ${JSON.stringify(hours)}`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/**
 * A Tallybook placement as the PlaceMint id it names: `plc_` and six digits. Some timesheets
 * carry the number without its leading zeros (`plc_7` is `plc_000007`).
 */
export function placementId(raw: string): string {
  const m = /^\s*plc_(\d{1,6})\s*$/i.exec(raw);
  if (!m) throw new Error(`not a placement id: ${JSON.stringify(raw)}`);
  return `plc_${m[1].padStart(6, "0")}`;
}

/** The close is for Q1 2025: a timesheet counts in the quarter its week ends in. */
export const inQuarter = (weekEnding: string) => {
  const day = weekEnding.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a week-ending date: ${JSON.stringify(weekEnding)}`);
  return day >= "2025-01-01" && day <= "2025-03-31";
};

export const hoursText = (h: number) => (h % 100 ? `${Math.floor(h / 100)}.${String(h % 100).padStart(2, "0")}` : String(h / 100));

/** hours x rate (cents) x bps / 10000, to the nearest cent, halves up. */
export function feeCents(hoursHundredths: number, rateCents: number, bps: number): number {
  const num = hoursHundredths * rateCents * bps;
  const den = 1_000_000;
  return Math.floor((2 * num + den) / (2 * den));
}

export const TAG = "(fee-close 2025-Q1)";
export const feeBody = (currency: string, cents: number) => `Q1 2025 agency fee: ${currency} ${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")} ${TAG}`;
