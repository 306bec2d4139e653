import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { adminAuth } from "./index.ts";

function app(token: string | undefined) {
  const a = new Hono<{ Bindings: { T?: string } }>();
  a.use(
    "*",
    adminAuth((env) => (env as { T?: string }).T),
  );
  a.get("/x", (c) => c.json({ ok: true }));
  return (headers: Record<string, string>) => a.request("/x", { headers }, { T: token });
}

describe("adminAuth", () => {
  it("lets the right bearer token through", async () => {
    const res = await app("s3cret")({ authorization: "Bearer s3cret" });
    expect(res.status).toBe(200);
  });

  it.each([
    ["no header", {}, /missing Authorization/],
    ["wrong scheme", { authorization: "Basic s3cret" }, /Bearer scheme/],
    ["wrong token", { authorization: "Bearer nope" }, /not valid/],
    ["token prefix only", { authorization: "Bearer s3cre" }, /not valid/],
  ])("answers 401 for %s", async (_name, headers, message) => {
    const res = await app("s3cret")(headers as Record<string, string>);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });

  it("refuses everything when no token is configured", async () => {
    const res = await app(undefined)({ authorization: "Bearer anything" });
    expect(res.status).toBe(503);
  });
});
