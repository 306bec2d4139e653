import type { Starter } from "./starters.ts";

/** What Onboardly's documentation says addSigner accepts for auth_method. */
const AUTH_METHODS = ["email_link", "sms_code", "id_document"];

/**
 * Why Onboardly would refuse this starter's packet or signer, by the documented inputs
 * (required fields, lengths, allowed values), or null. Checked before the first write,
 * so a starter Onboardly would refuse never leaves an empty packet behind.
 */
export function inputProblem(s: Starter): string | null {
  const required: [string, string | null | undefined, number][] = [
    ["template_id", s.template_id, 200],
    ["job_title", s.job_title, 120],
    ["first_name", s.first_name, 80],
    ["last_name", s.last_name, 80],
    ["email", s.email, 254],
  ];
  for (const [field, value, max] of required) {
    if (typeof value !== "string" || !value.trim()) return `${field} is required`;
    if (value.length > max) return `${field} is longer than ${max} characters`;
  }
  if (s.department && s.department.length > 80) return "department is longer than 80 characters";
  if (s.phone && s.phone.length > 20) return "phone is longer than 20 characters";
  if (!AUTH_METHODS.includes(s.auth_method)) return `auth_method must be one of ${AUTH_METHODS.join(", ")}`;
  return null;
}
