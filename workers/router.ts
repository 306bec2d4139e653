import { Hono } from "hono";
import { createWorld } from "./control/create-world.ts";
import { getWorld } from "./control/get-world.ts";
import { listVendors } from "./control/list-vendors.ts";
import { recreateRole } from "./control/recreate-role.ts";
import { worldRecords } from "./control/world-records.ts";
import { takeRoleSnapshot } from "./control/role-snapshots.ts";
import { roleLog } from "./control/role-logs.ts";
import { drainOutbox, relayResult, setWebhookTarget, webhookLog } from "./control/webhooks.ts";
import type { Env } from "./env.ts";
import { principalAuth } from "./middleware/principal/index.ts";
import { PRINCIPAL_HEADER, type Principal } from "./middleware/principal/principal.ts";
import { deleteWorld } from "./control/delete-world.ts";
import { vendorSurface } from "./surface/vendor-surface.ts";
import type { AppContext } from "./control/world-lookup.ts";
import { SUBMISSION_BODY_MAX_BYTES } from "./grader/submission-model.ts";

/** The farm: control plane under /v1, vendor surfaces under /w/:world/:role. */
export function buildRouter(): Hono<{ Bindings: Env; Variables: { principal: Principal } }> {
  const app = new Hono<{ Bindings: Env; Variables: { principal: Principal } }>();

  // A browser gets the published site when the farm has one; programs get the farm's description.
  app.get("/", async (c) => {
    if (c.env.SITE && (c.req.header("accept") ?? "").includes("text/html")) return c.env.SITE.fetch(c.req.raw);
    return c.json({ service: "wirebench farm", controlPlane: "/v1", vendorSurface: "/w/:world/:role/", site: c.env.SITE ? "/" : null });
  });

  app.use(
    "/v1/*",
    principalAuth({
      adminToken: (env) => (env as Env).WIREBENCH_ADMIN_TOKEN,
      exposure: (env) => (env as Env).WIREBENCH_EXPOSURE,
      participant: (env, hash) => (env as Env).GRADER.participantByKeyHash(hash),
    }),
  );
  /** Hands a request to the grader with the caller the farm authenticated (a caller's own header is dropped). */
  const toGrader = (c: AppContext) => {
    const req = new Request(c.req.raw);
    req.headers.set(PRINCIPAL_HEADER, JSON.stringify(c.var.principal));
    return c.env.GRADER.fetch(req);
  };
  const operatorOnly = (handler: (c: AppContext) => Response | Promise<Response>) => (c: AppContext) =>
    c.var.principal.kind === "admin" ? handler(c) : c.json({ error: "this route is for the operator (admin token)" }, 403);

  app.get("/v1/vendors", operatorOnly(listVendors));
  app.get("/v1/tasks", toGrader);
  app.post("/v1/participants", operatorOnly(toGrader));
  app.post("/v1/worlds", createWorld);
  app.get("/v1/worlds/:world", getWorld);
  app.delete("/v1/worlds/:world", deleteWorld);
  app.post("/v1/worlds/:world/roles/:role/recreate", recreateRole);
  app.get("/v1/worlds/:world/roles/:role/requests", roleLog("requests"));
  app.get("/v1/worlds/:world/roles/:role/tokens", roleLog("tokens"));
  app.get("/v1/worlds/:world/roles/:role/webhooks", webhookLog);
  app.post("/v1/worlds/:world/roles/:role/webhook-target", setWebhookTarget);
  app.get("/v1/worlds/:world/roles/:role/outbox", drainOutbox);
  app.post("/v1/worlds/:world/roles/:role/outbox/:id/result", relayResult);
  app.get("/v1/worlds/:world/roles/:role/records", worldRecords);
  app.post("/v1/worlds/:world/roles/:role/snapshots", takeRoleSnapshot);
  // Runs live in the grader: the farm has authenticated the caller and hands the request on.
  app.all("/v1/runs", toGrader);
  app.all("/v1/runs/*", toGrader);
  // Submissions live in the grader too; a body over the limit is refused here, unread.
  app.post("/v1/submissions", async (c) => {
    if (Number(c.req.header("content-length") ?? "0") > SUBMISSION_BODY_MAX_BYTES) return c.json({ error: `body is over the ${SUBMISSION_BODY_MAX_BYTES}-byte limit` }, 413);
    return toGrader(c);
  });
  app.post("/v1/submissions/claim", operatorOnly(toGrader));
  app.post("/v1/submissions/:id/result", operatorOnly(toGrader));
  app.post("/v1/submissions/:id/release", operatorOnly(toGrader));
  app.all("/v1/submissions", toGrader);
  app.all("/v1/submissions/*", toGrader);

  app.all("/w/:world/:role", vendorSurface);
  app.all("/w/:world/:role/*", vendorSurface);

  app.notFound(async (c) => {
    if (c.env.SITE && (c.req.method === "GET" || c.req.method === "HEAD")) {
      const page = await c.env.SITE.fetch(c.req.raw);
      if (page.status !== 404) return page;
    }
    return c.json({ error: `no route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404);
  });
  app.onError((err, c) => {
    console.error("farm error", err);
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}
