import type { DocModel } from "../model.ts";
import { deletedReadStatus } from "../../../mechanics/deletes/index.ts";
import { code, table } from "./helpers.ts";

/** `errors.md`. */
export function errorsPage(m: DocModel): string {
  const e = m.errors;
  const r = m.resources.find((x) => x.get) ?? m.resources[0];
  const id = r.examples[0]?.id ?? "42";
  const inner = { [e.codeField]: "not_found", [e.messageField]: `${r.name} ${id} does not exist` };
  const lines = [
    "# Errors",
    "",
    "Errors use this body:",
    "",
    code("json", JSON.stringify(e.wrap ? { [e.wrap]: inner } : inner, null, 2)),
    "",
    table(["status", "meaning"], [
      [400, "a parameter or the body is malformed"],
      [401, "credentials are missing, invalid or expired"],
      [404, "no such record or route"],
      [405, "method not allowed on this path"],
      ...(deletedReadStatus(m.deletes) === 410 ? [[410, "the record was deleted"]] : []),
      ...(m.writes.some((w) => w.ifMatch) ? [[412, "the record changed since you read it (If-Match)"]] : []),
      [413, "the request body is too large"],
      ...(m.writes.some((w) => w.errors === "http-422") ? [[422, `validation failed; \`${e.fieldErrorsField}\` lists each field`]] : []),
      ...(m.writes.some((w) => w.ifMatch) ? [[428, "If-Match is required"]] : []),
      ...(m.rateLimit ? [[429, "rate limit reached"]] : []),
      ["500, 502, 504", "a server error: the request may or may not have taken effect; retry safely"],
      [503, "temporarily unavailable (maintenance); wait as `Retry-After` says"],
    ] as (string | number)[][]),
    "",
  ];
  for (const note of e.notes ?? []) lines.push(note, "");
  if (m.writes.some((w) => w.errors === "rpc-200")) {
    lines.push("## RPC calls", "", `RPC endpoints answer \`200\` even when they fail; check \`${e.rpcOkField}\` in the body. A failed call carries \`${e.codeField}\` and \`${e.messageField}\`.`, "");
  }
  return lines.join("\n");
}
