import type { z } from "zod";
import { VendorSchema, type Vendor, type VendorInput } from "./vendor.ts";

/** A declaration that does not satisfy its schema; the message names every bad path. */
export class DeclarationError extends Error {
  /** Which declaration failed (`vendor staffline`). */
  readonly subject: string;
  /** The zod issues behind the failure. */
  readonly issues: z.core.$ZodIssue[];

  constructor(subject: string, issues: z.core.$ZodIssue[]) {
    super(`${subject} is invalid:\n${issues.map((i) => `  at ${formatPath(i.path)}: ${i.message}`).join("\n")}`);
    this.subject = subject;
    this.issues = issues;
    this.name = "DeclarationError";
  }
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
}

/** Validates a vendor declaration, throwing a DeclarationError that names each bad path. */
export function parseVendor(input: unknown, label = "vendor declaration"): Vendor {
  const result = VendorSchema.safeParse(input);
  if (!result.success) throw new DeclarationError(label, result.error.issues);
  return result.data;
}

/** Declares a vendor; the module fails to load when the declaration is invalid. */
export function defineVendor(input: VendorInput): Vendor {
  return parseVendor(input, `vendor ${typeof input?.id === "string" ? input.id : "(no id)"}`);
}
