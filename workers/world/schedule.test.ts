import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Schedule } from "./schedule.ts";
import { migrateWorld } from "./schema.ts";

/** Alarms in the past fire at once: the times here are fixed, far ahead of any clock (2100-01-01). */
const T0 = 4_102_444_800_000;

describe("the alarm's schedule", () => {
  it("keeps typed events in due order, hands out the due ones (at least the earliest batch), and forgets applied ones", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/schedule"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      const s = new Schedule(state.storage.sql);
      const t0 = T0;
      s.add(t0 + 2000, { kind: "fault-window", fault: "f", active: false });
      s.add(t0, { kind: "fault-window", fault: "f", active: true });
      s.add(t0, { kind: "webhook-deliver", eventId: "evt_1", attempt: 1, tampered: false, skewS: 0, duplicate: false, fault: null });
      expect(s.next()).toBe(t0);
      expect(s.pending("webhook-deliver")).toBe(1);
      const early = s.dueAt(0);
      expect(early.map((d) => d.event)).toEqual([
        { kind: "fault-window", fault: "f", active: true },
        { kind: "webhook-deliver", eventId: "evt_1", attempt: 1, tampered: false, skewS: 0, duplicate: false, fault: null },
      ]);
      for (const d of early) s.done(d.id);
      expect(s.next()).toBe(t0 + 2000);
      expect(s.pending("webhook-deliver")).toBe(0);
      await s.arm(state.storage);
      expect(await state.storage.getAlarm()).toBe(t0 + 2000);
      s.clear();
      expect(s.next()).toBeNull();
      await s.arm(state.storage);
      expect(await state.storage.getAlarm()).toBeNull();
    });
  });

  it("applies the world's expiry only once it is due, and keeps it across a timeline reset", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/schedule-lifecycle"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      const s = new Schedule(state.storage.sql);
      const t0 = T0;
      s.add(t0 + 5000, { kind: "world-expire" });
      s.add(t0, { kind: "fault-window", fault: "f", active: true });
      expect(s.dueAt(0).map((d) => d.event.kind)).toEqual(["fault-window"]);
      s.clear();
      expect(s.next()).toBe(t0 + 5000);
      expect(s.dueAt(0)).toEqual([]);
      expect(s.dueAt(t0 + 5000).map((d) => d.event)).toEqual([{ kind: "world-expire" }]);
    });
  });
});
