/**
 * @module caller
 * The principal the farm authenticated, read from the header it sets on
 * every request it hands the grader (the grader has no route of its own).
 */
import { PRINCIPAL_HEADER, type Principal } from "../middleware/principal/principal.ts";
import type { GraderContext } from "./context.ts";

/** The caller, or null when the header is missing or unreadable. */
export function callerOf(c: GraderContext): Principal | null {
  const raw = c.req.header(PRINCIPAL_HEADER);
  if (!raw) return null;
  try {
    const p = JSON.parse(raw) as Principal;
    return p.kind === "admin" || (p.kind === "participant" && typeof p.id === "string") ? p : null;
  } catch {
    return null;
  }
}

/** Whether the caller may see something a participant (or the operator, null) owns. */
export function owns(caller: Principal, owner: string | null): boolean {
  return caller.kind === "admin" || caller.id === owner;
}
