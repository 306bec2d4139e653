import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseVendor } from "../../declarations/schema/define.ts";
import talentloop from "../../declarations/vendors/talentloop.ts";
import { WebhookDispatcher } from "../../workers/engine/webhooks/dispatcher.ts";
import type { WorldConfig } from "../../workers/engine/world-config.ts";
import { migrateWorld } from "../../workers/world/schema.ts";

/** TalentLoop re-declared with the ack-body protocol and a dead-letter queue. */
const acking = parseVendor({ ...talentloop, id: "talentloopack", webhooks: { ...talentloop.webhooks!, retrySchedule: [1, 1], ack: { field: "ack", deadLetterPath: "/webhooks/dead-letters" } } });

const config: WorldConfig = {
  world: "w_inline",
  role: "ats",
  vendor: "talentloopack",
  seed: 1,
  task: null,
  checkpoint: 1,
  scale: 1,
  rateLimits: true,
  docsProfile: "true",
  webhookTarget: "http://listener.test/hooks",
  relay: true,
  armedFaults: [],
  epoch: 1,
  epochStartSeq: 0,
  credentials: { client_id: "tlci_x", client_secret: "tlcs_y", webhook_secret: "whsec_0123456789abcdef0123456789abcdef01234567" },
};

describe("ack-body protocol (dispatcher, inline declaration)", () => {
  it("counts a delivery only when the answer echoes the event id, dead-letters the rest, and drains them once", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("inline/ack"));
    await runInDurableObject(stub, async (_obj, state) => {
      migrateWorld(state.storage.sql);
      const d = new WebhookDispatcher(acking, state.storage.sql, config);
      const now = 1_800_000_000_000;
      const jobs = d.enqueue(
        [
          { type: "candidate.updated", entity: "candidate", recordId: "cand_0001", atMs: now, record: { id: "cand_0001" } },
          { type: "candidate.updated", entity: "candidate", recordId: "cand_0002", atMs: now, record: { id: "cand_0002" } },
        ],
        now,
      );
      for (const j of jobs) await d.attempt(j, now);
      const [a, b] = d.drainOutbox();
      // The first answer is 200 but echoes the wrong id: not an ack, so it is retried.
      const retryA = d.relayResult(a.id, 200, now, JSON.stringify({ ack: "evt_99999" }))!.job!;
      expect(retryA).toMatchObject({ eventId: a.eventId, attempt: 2 });
      await d.attempt(retryA, now);
      const [a2] = d.drainOutbox();
      expect(d.relayResult(a2.id, 200, now, JSON.stringify({ ack: a.eventId }))!.job).toBeNull();
      // The second event is never acknowledged: after the last retry it is dead-lettered.
      let job = d.relayResult(b.id, 200, now, "")!.job;
      while (job) {
        await d.attempt(job, now);
        const [next] = d.drainOutbox();
        job = d.relayResult(next.id, 500, now, "")!.job;
      }
      const log = d.log();
      expect(log.map((r) => [r.eventId, r.attempt, r.acked])).toEqual([
        [a.eventId, 1, false],
        [a.eventId, 2, true],
        [b.eventId, 1, false],
        [b.eventId, 2, false],
        [b.eventId, 3, false],
      ]);
      const drained = d.drainDeadLetters() as { id: string }[];
      expect(drained.map((e) => e.id)).toEqual([b.eventId]);
      expect(d.drainDeadLetters()).toEqual([]);
    });
  });

  it("rejects a dead-letter path that clashes with another route", () => {
    expect(() => parseVendor({ ...acking, webhooks: { ...acking.webhooks!, ack: { field: "ack", deadLetterPath: "/v1/candidates" } } })).toThrow(/already used/);
  });
});
