/**
 * This week's top-up sheet (`repo/input/topup.csv`) as the judge reads it:
 * each line's gig and person, a person being a returning worker's number or a
 * new starter's email address (trimmed, lower case). `sheet.test.ts` holds it
 * to the file the agent gets.
 */

/** Who a line books: a returning worker by number, or a new starter by email address. */
export type Person = { kind: "returning"; number: string } | { kind: "starter"; email: string };

export interface SheetLine {
  line: number;
  gig: string;
  person: Person;
}

const returning = (line: number, gig: string, number: string): SheetLine => ({ line, gig, person: { kind: "returning", number } });
const starter = (line: number, gig: string, email: string): SheetLine => ({ line, gig, person: { kind: "starter", email } });

export const SHEET: readonly SheetLine[] = [
  returning(1, "770012", "31048"),
  returning(2, "770012", "31251"),
  starter(3, "770012", "marisol.ortega@fastmail.example"),
  returning(4, "770012", "31124"),
  returning(5, "770027", "31122"),
  starter(6, "770027", "tomasz.wrona@proton.example"),
  returning(7, "770027", "31207"),
  starter(8, "770035", "marisol.ortega@fastmail.example"),
  returning(9, "770035", "31248"),
  returning(10, "770035", "31925"),
  starter(11, "770048", "deshawn.pruitt@mailbox.example"),
  returning(12, "770048", "31048"),
  starter(13, "770063", "aiyana.redcloud@mailbox.example"),
  returning(14, "770027", "31122"),
  starter(15, "770081", "tomasz.wrona@proton.example"),
  returning(16, "770081", "31166"),
  returning(17, "770081", "31065"),
];

/** What CrewCall should hold for each new starter once set up (mobile in E.164, role in CrewCall's vocabulary). */
export const STARTERS: Readonly<Record<string, { first_name: string; last_name: string; mobile: string; home_zone: string; primary_role: string }>> = {
  "marisol.ortega@fastmail.example": { first_name: "Marisol", last_name: "Ortega", mobile: "+14155550134", home_zone: "Oakland, CA", primary_role: "event_server" },
  "tomasz.wrona@proton.example": { first_name: "Tomasz", last_name: "Wrona", mobile: "+14155550177", home_zone: "Oakland, CA", primary_role: "warehouse_associate" },
  "deshawn.pruitt@mailbox.example": { first_name: "Deshawn", last_name: "Pruitt", mobile: "+15105550161", home_zone: "Oakland, CA", primary_role: "forklift_operator" },
  "aiyana.redcloud@mailbox.example": { first_name: "Aiyana", last_name: "Redcloud", mobile: "+15105550192", home_zone: "Oakland, CA", primary_role: "picker_packer" },
};

/** An email address as one person: trimmed, lower case. */
export function canonicalEmail(v: unknown): string {
  return typeof v === "string" ? v.trim().toLowerCase() : "";
}
