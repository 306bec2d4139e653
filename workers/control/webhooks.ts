import { readJson } from "./read-json.ts";
import { describeZodError, EpochQuery, RelayResultBody, WebhookTargetBody } from "./schemas.ts";
import { resolveRole, roleStub, type AppContext } from "./world-lookup.ts";
import { webhookTargetRefusal } from "./webhook-target-policy.ts";

/** `GET .../webhooks?epoch=`: the delivery log of a role. */
export async function webhookLog(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  const q = EpochQuery.safeParse(c.req.query());
  if (!q.success) return c.json({ error: describeZodError(q.error) }, 400);
  const records = await roleStub(c.env, target.world, target.role).webhookLog(q.data.epoch);
  return c.json({ world: target.world, role: target.role, epoch: q.data.epoch ?? null, records });
}

/** `POST .../webhook-target {url, relay}`: where deliveries go from now on. */
export async function setWebhookTarget(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  const body = await readJson(c, WebhookTargetBody);
  if (body instanceof Response) return body;
  const refused = webhookTargetRefusal(c.var.principal, body.url, body.relay);
  if (refused) return c.json({ error: `url: ${refused}` }, 400);
  await roleStub(c.env, target.world, target.role).setWebhookTarget(body.url, body.relay);
  return c.json({ world: target.world, role: target.role, url: body.url, relay: body.relay });
}

/**
 * `GET .../outbox`: the relay. A farm on the internet cannot reach a receiver
 * on a laptop, so a harness takes pending deliveries here, delivers them
 * locally and reports each outcome; the delivery log reads the same.
 */
export async function drainOutbox(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  return c.json({ deliveries: await roleStub(c.env, target.world, target.role).drainOutbox() });
}

/** `POST .../outbox/:id/result {responseCode}`: what the receiver answered. */
export async function relayResult(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  const body = await readJson(c, RelayResultBody);
  if (body instanceof Response) return body;
  const id = c.req.param("id")!;
  const ok = await roleStub(c.env, target.world, target.role).relayResult(id, body.responseCode, body.body);
  if (!ok) return c.json({ error: `no delivery "${id}" is awaiting a result` }, 404);
  return c.json({ id, recorded: true });
}
