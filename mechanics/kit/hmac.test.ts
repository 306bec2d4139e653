import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalQuery, safeEqual, signRequest, stringToSign } from "./hmac.ts";

const req = { method: "get", path: "/svc/candidates", query: new URLSearchParams("start=100&count=50&a=b c&a=a"), timestamp: "1546851606000", rawBody: '{"x":1}' };

describe("request signing", () => {
  it("sorts the query by key, then value, percent-encoding each part", () => {
    expect(canonicalQuery(req.query)).toBe("a=a&a=b%20c&count=50&start=100");
    expect(canonicalQuery(new URLSearchParams())).toBe("");
  });

  it("joins the declared parts in order with the declared separator", async () => {
    const digest = createHash("sha256").update(req.rawBody).digest("hex");
    expect(await stringToSign(req, { parts: ["method", "path", "query", "timestamp", "body_sha256"], separator: "\n" })).toBe(
      `GET\n/svc/candidates\na=a&a=b%20c&count=50&start=100\n1546851606000\n${digest}`,
    );
    expect(await stringToSign(req, { parts: ["timestamp", "body"], separator: "." })).toBe('1546851606000.{"x":1}');
  });

  it("signs with HMAC-SHA256 in hex or base64, as an independent implementation does", async () => {
    const rule = { parts: ["method", "path", "timestamp"] as ("method" | "path" | "timestamp")[], separator: "|" };
    const mac = (encoding: "hex" | "base64") => createHmac("sha256", "s3cret").update("GET|/svc/candidates|1546851606000").digest(encoding);
    expect(await signRequest(req, { ...rule, encoding: "hex" }, "s3cret")).toBe(mac("hex"));
    expect(await signRequest(req, { ...rule, encoding: "base64" }, "s3cret")).toBe(mac("base64"));
  });

  it("compares in constant time and refuses different lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
