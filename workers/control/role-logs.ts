import { describeZodError, EpochQuery } from "./schemas.ts";
import { resolveRole, roleStub, type AppContext } from "./world-lookup.ts";

/** `GET /v1/worlds/:world/roles/:role/{requests,tokens}?epoch=`: one log of a role. */
export function roleLog(kind: "requests" | "tokens") {
  return async (c: AppContext): Promise<Response> => {
    const target = await resolveRole(c);
    if (target instanceof Response) return target;
    const q = EpochQuery.safeParse(c.req.query());
    if (!q.success) return c.json({ error: describeZodError(q.error) }, 400);
    const stub = roleStub(c.env, target.world, target.role);
    const records = kind === "requests" ? await stub.requestLog(q.data.epoch) : await stub.tokenLog(q.data.epoch);
    return c.json({ world: target.world, role: target.role, epoch: q.data.epoch ?? null, records });
  };
}
