import { describe, expect, it } from "vitest";
import { sharedMutants } from "./generators.ts";

const gold = new Map([
  [
    "src/client.ts",
    [
      "const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));",
      'const wait = Number(res.headers.get("retry-after"));',
      'const raw = headers.get("Retry-After")?.trim();',
      'const after = Number(res?.headers.get("retry-after"));',
      'if (key) headers["Idempotency-Key"] = key;',
      'await fetch(url, { headers: { "Idempotency-Key": `k-${id}`, accept: "json" } });',
      "setTimeout(() => ctl.abort(), Math.min(a, b));",
      "await new Promise((r) => setTimeout(r, (Number.isFinite(after) ? after : 1) * 1000));",
    ].join("\n"),
  ],
  ["README.md", 'headers.get("retry-after")'],
]);

describe("shared mutant generators", () => {
  const byId = new Map(sharedMutants(gold, "src/main.ts").map((m) => [m.id, m]));

  it("find each pattern in source files only, one patch per distinct text", () => {
    expect(byId.get("shared-retry-after-ignored")?.patches).toEqual([
      { file: "src/client.ts", find: 'res.headers.get("retry-after")', replace: "(null as string | null)", count: 1 },
      { file: "src/client.ts", find: 'headers.get("Retry-After")', replace: "(null as string | null)", count: 1 },
      { file: "src/client.ts", find: 'res?.headers.get("retry-after")', replace: "(null as string | null)", count: 1 },
    ]);
    // The abort timer's callback is no wait; a delay with nested parentheses is one.
    expect(byId.get("shared-no-wait")?.patches).toEqual([
      { file: "src/client.ts", find: "setTimeout(r, ms)", replace: "setTimeout(r, 0)", count: 1 },
      { file: "src/client.ts", find: "setTimeout(r, (Number.isFinite(after) ? after : 1) * 1000)", replace: "setTimeout(r, 0)", count: 1 },
    ]);
    expect(byId.get("shared-idempotency-key-dropped")?.patches).toEqual([
      { file: "src/client.ts", find: 'headers["Idempotency-Key"] = key;', replace: "void 0;", count: 1 },
      { file: "src/client.ts", find: '"Idempotency-Key": `k-${id}`,', replace: "", count: 1 },
    ]);
  });

  it("put the credential-leaking preludes at the top of the entry script of a connector that uses fetch", () => {
    for (const id of ["shared-credential-in-query", "shared-secret-in-body"]) expect(byId.get(id)?.patches).toEqual([{ file: "src/main.ts", prepend: expect.stringContaining("globalThis.fetch =") }]);
    // A leak breaks the requests it rides on too: what it is aimed at is named, so its other kills count as collateral.
    expect(byId.get("shared-secret-in-body")?.aimsAt).toEqual(["no_secrets_echoed_to_vendor"]);
    expect(byId.get("shared-no-wait")?.aimsAt).toBeUndefined();
    expect(sharedMutants(new Map([["src/main.ts", "console.log(1)"]]), "src/main.ts")).toEqual([]);
  });
});
