import type { Vendor } from "../../declarations/schema/vendor.ts";
import type { VendorRequest } from "./http/vendor-request.ts";
import type { FaultRuntime } from "./faults/fault-runtime.ts";
import type { RecordRow, RecordStore } from "./store/records.ts";
import type { WorldConfig } from "./world-config.ts";

/** Annotations a handler adds to the request's log row. */
export interface LogNotes {
  idempotencyKey: string | null;
  faults: string[];
  lies: string[];
}

/** Everything a route handler may use. */
export interface HandlerContext {
  vendor: Vendor;
  config: WorldConfig;
  /** Vendor root as the client reached it, for links. */
  baseUrl: string;
  req: VendorRequest;
  /** Path parameters (`id`, `parentId`). */
  params: Record<string, string>;
  records: RecordStore;
  sql: SqlStorage;
  /** Requests served in this epoch before this one (drives the data clock). */
  requestsInEpoch: number;
  notes: LogNotes;
  /** Armed faults and their trigger counters. */
  faults: FaultRuntime;
  /** Announces a change made through the API (webhook vendors); `extra` goes to the top level of its event (an accepted write's request id). */
  changed: (entity: string, op: string, row: RecordRow, extra?: Record<string, unknown>) => void;
}
