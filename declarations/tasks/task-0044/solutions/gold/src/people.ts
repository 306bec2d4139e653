/** How the sheet's hand-typed details become what CrewCall takes. */

/** An email address as one person: trimmed, lower case. */
export function canonicalEmail(v: string): string {
  return v.trim().toLowerCase();
}

/** A worker number as CrewCall writes it ("031207" is 31207), or null when the cell holds none. */
export function workerNumber(v: string): string | null {
  const t = v.trim().replace(/^#/, "");
  if (!/^\d+$/.test(t)) return null;
  return String(Number(t));
}

/** A North American phone number as typed ("(415) 555-0134", "510.555.0192", "+1 (510) 555-0161") in E.164. */
export function e164(v: string): string | undefined {
  const digits = v.replace(/\D/g, "");
  if (!digits) return undefined;
  if (v.trim().startsWith("+")) return `+${digits}`;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `+${digits}`;
  return `+${digits}`;
}

/** A role as the coordinators say it ("Picker / packer") in CrewCall's words (`picker_packer`). */
export function crewRole(v: string): string {
  return v
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
