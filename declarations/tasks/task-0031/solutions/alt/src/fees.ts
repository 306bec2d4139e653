/** The close's arithmetic (PROBLEM.md, "The rule"), in integers. */

/** Hours as hundredths: Tallybook writes at most two decimals. */
export function hundredths(hours: string): number {
  const m = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(hours);
  if (!m) throw new Error(`not a number of hours: ${JSON.stringify(hours)}`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

export const hoursText = (h: number) => (h % 100 ? `${Math.floor(h / 100)}.${String(h % 100).padStart(2, "0")}` : String(h / 100));

/** hours x rate (cents) x bps / 10000, to the nearest cent, halves up. */
export function feeCents(hoursHundredths: number, rateCents: number, bps: number): number {
  const num = hoursHundredths * rateCents * bps;
  const den = 1_000_000;
  return Math.floor((2 * num + den) / (2 * den));
}

export const TAG = "(fee-close 2025-Q1)";
export const feeBody = (currency: string, cents: number) => `Q1 2025 agency fee: ${currency} ${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")} ${TAG}`;
