/**
 * @module lies/delete-semantics
 * The docs describe deletes another way: what they say is itself a delete
 * style, with its defaults filled in.
 */
import { z } from "zod";
import { deleteStyle } from "../deletes/index.ts";
import type { DocModel } from "../kit/doc-model.ts";
import { defineLie, isRead, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("delete-semantics"), ...lieCommon, says: z.object({ mode: z.string() }).loose() });

/** Why what the lie says is not a declarable delete style, or null. */
function notAStyle(says: { mode: string }): string | null {
  let style: ReturnType<typeof deleteStyle>;
  try {
    style = deleteStyle(says);
  } catch (err) {
    return (err as Error).message;
  }
  const parsed = style.schema.safeParse(says);
  return parsed.success ? null : `what it says is not a "${says.mode}" delete style: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`;
}

export const deleteSemantics = defineLie({
  schema,
  problem(v, lie) {
    const problem = notAStyle(lie.says);
    if (problem) return problem;
    return JSON.stringify({ ...v.deletes, ...lie.says }) === JSON.stringify(v.deletes) && v.deletes.mode === lie.says.mode ? "that is how deletes really work" : null;
  },
  tell(m, lie) {
    m.deletes = deleteStyle(lie.says).schema.parse(lie.says) as DocModel["deletes"];
  },
  areas: { openapi: /^(paths\.|components\.schemas\.)/, pages: /^(syncing|index|resource-|errors)/ },
  touches: (_lie, f) => isRead(f),
});
