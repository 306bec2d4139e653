import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";

/** What one (world, role) Durable Object knows about itself. */
export interface WorldConfig {
  /** World id (`r1-t0001-s7-<16 hex>`, see world/world-id.ts). */
  world: string;
  /** Role of this vendor inside the world (`ats`, `hris`, or the vendor id). */
  role: string;
  /** Vendor declaration id. */
  vendor: string;
  /** World seed. */
  seed: number;
  /** Task the world was created for, if any. */
  task: string | null;
  /** Multiplier on seeded record counts (timeline mutations are not scaled). */
  scale: number;
  /** Which documentation the world serves at `_docs/`. */
  docsProfile: DocsProfile;
  /** Whether the declared rate limits apply (off only for load measurements). */
  rateLimits: boolean;
  /** Checkpoint the records currently stand at. */
  checkpoint: number;
  /** Where webhook deliveries go (null: nowhere yet). */
  webhookTarget: string | null;
  /** Deliver through the relay outbox (a harness drains it) instead of fetching the target. */
  relay: boolean;
  /** Ids of the vendor faults armed for this epoch. */
  armedFaults: string[];
  /** Log epoch; bumped by every recreate. */
  epoch: number;
  /** Last request sequence number before this epoch began. */
  epochStartSeq: number;
  /**
   * Origin of the farm as the control plane was reached when the world was
   * made (or as configured): links and docs use it, never a client's `Host`.
   * Absent in worlds made by older releases.
   */
  publicOrigin?: string;
  /** Per-world credential values by declared name. */
  credentials: Record<string, string>;
  /** When the world's lifetime ends (ms since the Unix epoch); absent in worlds made by older releases. */
  expiresAtMs?: number;
  /** Vendor requests this role may take over its life (a participant's quota); null or absent: no limit. */
  requestQuota?: number | null;
}
