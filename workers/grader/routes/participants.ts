import { readJson } from "../../control/read-json.ts";
import { callerOf } from "../caller.ts";
import type { GraderContext } from "../context.ts";
import { MintParticipantBody, mintParticipant } from "../participants.ts";

/** `POST /v1/participants {name, quota}` (operator only): mints a participant key, shown this once. */
export async function createParticipant(c: GraderContext): Promise<Response> {
  if (callerOf(c)?.kind !== "admin") return c.json({ error: "only the operator (admin token) mints participant keys" }, 403);
  const body = await readJson(c, MintParticipantBody);
  if (body instanceof Response) return body;
  return c.json(await mintParticipant(c.env.DB, body, Date.now()), 201);
}
