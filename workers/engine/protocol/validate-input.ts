import { withArticle } from "../../../mechanics/kit/words.ts";
import type { Write } from "../../../declarations/schema/writes.ts";
import type { RecordStore } from "../store/records.ts";

/** One rejected input field. */
export interface FieldError {
  field: string;
  message: string;
}

/** Checks a write body against the write's declared inputs. */
export function validateInputs(write: Write, body: Record<string, unknown>, records: RecordStore): FieldError[] {
  const errors: FieldError[] = [];
  for (const input of write.inputs) {
    if (input.name === write.parentFrom && write.parentFrom?.startsWith(":")) continue;
    const v = body[input.name];
    if (v === undefined || v === null || v === "") {
      if (input.required) errors.push({ field: input.name, message: "is required" });
      continue;
    }
    const typeOk = input.type === "string" ? typeof v === "string" : input.type === "boolean" ? typeof v === "boolean" : input.type === "integer" ? Number.isInteger(v) : typeof v === "number";
    if (!typeOk) {
      errors.push({ field: input.name, message: `must be ${withArticle(input.type)}` });
      continue;
    }
    if (input.maxLength !== undefined && typeof v === "string" && v.length > input.maxLength) errors.push({ field: input.name, message: `must be at most ${input.maxLength} characters` });
    if (input.oneOf && !input.oneOf.includes(String(v))) errors.push({ field: input.name, message: `must be one of ${input.oneOf.join(", ")}` });
    if (input.ref) {
      const target = records.get(input.ref, String(v));
      if (!target || target.deletedMs !== null) errors.push({ field: input.name, message: `${input.ref} ${String(v)} does not exist` });
    }
  }
  return errors;
}
