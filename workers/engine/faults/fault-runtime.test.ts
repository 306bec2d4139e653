import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Fault } from "../../../declarations/schema/faults.ts";
import { json } from "../../../mechanics/kit/reply.ts";
import { migrateWorld } from "../../world/schema.ts";
import { FaultRuntime } from "./fault-runtime.ts";

const kit = {
  error: (status: number, code: string) => json(status, { code }),
  tooManyRequests: (_style: string, seconds: number) => json(429, { wait: seconds }),
};

function faults(...declared: unknown[]): Fault[] {
  return declared.map((f) => Fault.parse(f));
}

describe("the fault runtime", () => {
  it("runs before-route hooks in registry order: maintenance answers before a forced 429 window, and a delay only when neither does", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/fault-runtime-order"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      // Declared in the opposite order to the registry's.
      const armed = faults(
        { kind: "slow", id: "f-slow", afterRequests: 0, count: 5, delayMs: 10 },
        { kind: "rate-limit-window", id: "f-429", afterRequests: 2, cooldownS: 30 },
        { kind: "maintenance", id: "f-503", afterRequests: 1, count: 2 },
      );
      const rt = new FaultRuntime(armed, state.storage.sql, 1, kit);
      const seen: string[] = [];
      for (let n = 0; n < 5; n++) {
        rt.observe("/x", n, n + 1);
        const r = rt.beforeRoute(1_000_000);
        seen.push(r ? `${r.fault}:${"refusal" in r ? r.refusal.reply.status : `delay ${r.delayMs}`}` : "none");
      }
      expect(seen).toEqual(["f-slow:delay 10", "f-503:503", "f-503:503", "f-429:429", "f-429:429"]);
    });
  });

  it("fires a lapse-at-trigger once, at its trigger, asking the world to lapse the oldest matching records", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/fault-runtime-lapse-at-trigger"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      const armed = faults({ kind: "lapse-at-trigger", id: "lapsed", afterRequests: 0, resource: "booking", field: "status", from: "held", to: "expired", count: 3 });
      const lapses: string[] = [];
      const world = { revokeTokens: () => {}, driftToHead: () => {}, lapse: (r: string, f: string, from: string, to: string, n: number) => lapses.push(`${r}.${f} ${from}->${to} x${n}`) };
      const rt = new FaultRuntime(armed, state.storage.sql, 1, kit);
      for (let n = 0; n < 3; n++) {
        rt.observe("/b", n, n + 1);
        rt.fireOneShots(world);
      }
      expect(lapses).toEqual(["booking.status held->expired x3"]);
      expect(rt.firedAt("lapsed")).toBe(1);
    });
  });

  it("fires a one-shot once per epoch, even in a new runtime over the same storage (an evicted object)", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/fault-runtime-oneshot"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      const armed = faults({ kind: "page-drift", id: "drift", afterRequests: 3, resource: "candidate", inserts: 2 });
      const drifts: string[] = [];
      const world = { revokeTokens: () => {}, driftToHead: (r: string, n: number) => drifts.push(`${r}+${n}`), lapse: () => {} };
      let rt = new FaultRuntime(armed, state.storage.sql, 7, kit);
      for (let n = 0; n < 6; n++) {
        if (n === 4) rt = new FaultRuntime(armed, state.storage.sql, 7, kit);
        rt.observe("/c", n, n + 1);
        rt.fireOneShots(world);
      }
      expect(drifts).toEqual(["candidate+2"]);
      expect(rt.firedAt("drift")).toBe(4);
      // A new epoch arms it afresh.
      const next = new FaultRuntime(armed, state.storage.sql, 8, kit);
      next.observe("/c", 3, 10);
      next.fireOneShots(world);
      expect(drifts).toEqual(["candidate+2", "candidate+2"]);
    });
  });

  it("counts a path-scoped trigger only on its path, and tells every error-after-commit fault of a commit", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/fault-runtime-paths"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      const armed = faults(
        { kind: "slow", id: "s", afterRequests: 2, path: "/jobs", count: 1, delayMs: 5 },
        { kind: "error-after-commit", id: "first", write: "create", nth: 1 },
        { kind: "error-after-commit", id: "third", write: "create", nth: 3 },
      );
      const rt = new FaultRuntime(armed, state.storage.sql, 1, kit);
      const paths = ["/a", "/jobs", "/a", "/jobs", "/a", "/jobs"];
      const answered = paths.map((p, n) => {
        rt.observe(p, n, n + 1);
        return rt.beforeRoute(0)?.fault ?? "-";
      });
      // Two requests to /jobs have been served before the fifth request: it is the first one affected, whatever its path.
      expect(answered).toEqual(["-", "-", "-", "-", "s", "-"]);
      expect([1, 2, 3, 4].map(() => rt.afterCommit("create")?.fault ?? "-")).toEqual(["first", "-", "third", "-"]);
    });
  });
  it("goes on counting in a new runtime over the same storage (an evicted or restarted object): a cut-off's count, a path trigger, an error-after-commit's nth", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/fault-runtime-counters"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      const armed = faults(
        { kind: "connection-reset", id: "cut", afterRequests: 1, count: 1 },
        { kind: "slow", id: "s", afterRequests: 2, path: "/jobs", count: 1, delayMs: 5 },
        { kind: "error-after-commit", id: "second", write: "create", nth: 2 },
      );
      const answers: string[] = [];
      let rt = new FaultRuntime(armed, state.storage.sql, 3, kit);
      const paths = ["/a", "/jobs", "/a", "/jobs", "/a", "/a"];
      paths.forEach((p, n) => {
        // Every request is served by a fresh runtime from the second on: what one counted, the next reads.
        if (n > 0) rt = new FaultRuntime(armed, state.storage.sql, 3, kit);
        rt.observe(p, n, n + 1);
        const before = rt.beforeRoute(0)?.fault ?? "-";
        const cut = rt.onRespond(() => 10)?.fault ?? "-";
        const commit = n === 1 || n === 2 ? (rt.afterCommit("create")?.fault ?? "-") : "";
        rt.persist();
        answers.push(`${before}/${cut}${commit ? `/${commit}` : ""}`);
      });
      // The cut fires once (request 2), the delay once its path has been served twice (request 5), the second commit errs once.
      expect(answers).toEqual(["-/-", "-/cut/-", "-/-/second", "-/-", "s/-", "-/-"]);
      // Without persist() the counters die with the runtime: a fresh one over an epoch that never persisted cuts again.
      const forgetful = new FaultRuntime(armed, state.storage.sql, 4, kit);
      forgetful.observe("/a", 1, 1);
      expect(forgetful.onRespond(() => 10)?.fault).toBe("cut");
      const again = new FaultRuntime(armed, state.storage.sql, 4, kit);
      again.observe("/a", 2, 2);
      expect(again.onRespond(() => 10)?.fault).toBe("cut");
    });
  });
});
