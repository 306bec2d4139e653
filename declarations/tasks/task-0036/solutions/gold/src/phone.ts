/**
 * A UK mobile as HR typed it ("07700 900102", "+44 (0)7700 900109"), in the E.164 form
 * Onboardly's addSigner asks for ("+447700900102"): Onboardly stores whatever it is sent and
 * texts the signing code to it, so a number in any other form never gets the code.
 */
export function toE164(typed: string): string {
  const bare = typed.replace(/\(0\)/g, "").replace(/[^\d+]/g, "");
  if (bare.startsWith("+")) return bare;
  if (bare.startsWith("00")) return `+${bare.slice(2)}`;
  if (bare.startsWith("44")) return `+${bare}`;
  return `+44${bare.replace(/^0/, "")}`;
}
