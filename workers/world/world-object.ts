import { DurableObject } from "cloudflare:workers";
import { findVendor } from "../../declarations/vendors/index.ts";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { mintCredentials } from "../engine/auth/credentials.ts";
import { createHash } from "node:crypto";
import { DocsServer } from "./docs-server.ts";
import { takeSnapshot } from "./snapshot.ts";
import { readSnapshots, storeSnapshot } from "./snapshot-store.ts";
import { buildState } from "../engine/data/generate.ts";
import { packState, type PackedState } from "../engine/store/records.ts";
import type { RequestLogEntry, TokenLogEntry } from "../../evidence/logs.ts";
import { serializeRecord } from "../engine/protocol/serialize.ts";
import type { Snapshot } from "../../evidence/verdict.ts";
import { VendorEngine } from "../engine/vendor-engine.ts";
import { type Clock, clockFor } from "../engine/clock.ts";
import { exactBuffer } from "../engine/http/raw-json.ts";
import type { WorldConfig } from "../engine/world-config.ts";
import type { Env } from "../env.ts";
import { WebhookDispatcher, type DeliveryJob } from "../engine/webhooks/dispatcher.ts";
import type { DeliveryLogEntry } from "../../evidence/logs.ts";
import { allFlags, checkpointEvents, type VendorEvent } from "../engine/webhooks/events.ts";
import { type RecordRow, type RecordsKey, sameRecords } from "../engine/store/records.ts";
import { Schedule, type ScheduledEvent } from "./schedule.ts";
import { migrateWorld, worldSchemaExists } from "./schema.ts";
import type { VendorAnswer, VendorCall } from "./vendor-rpc.ts";

/** Status of one (world, role) as the control plane reports it. */
export interface RoleStatus {
  /** Vendor declaration id. */
  vendor: string;
  /** Checkpoint the records stand at. */
  checkpoint: number;
  /** Current log epoch. */
  epoch: number;
  /** SHA-256 over every record (ids, parents, values, deletions). */
  stateHash: string;
  /** Number of records, deleted ones included. */
  records: number;
  /** Requests logged in the current epoch. */
  requests: number;
  /** Faults that have fired in the current epoch. */
  firedFaults: string[];
  /** Webhook attempts still to be made or finished: queued (first attempts and retries on their backoff), in flight, or waiting in the relay outbox. */
  pendingDeliveries: number;
  /** Requests of the current epoch that reached the vendor but could not be logged at all. */
  unloggedRequests: number;
}

/** Arguments of a role's first initialisation. */
export interface InitArgs {
  world: string;
  role: string;
  vendor: string;
  seed: number;
  task: string | null;
  checkpoint: number;
  scale: number;
  rateLimits: boolean;
  docsProfile: WorldConfig["docsProfile"];
  /** Where webhook deliveries go, if the vendor has webhooks. */
  webhookTarget?: string | null;
  /** Deliver through the relay outbox instead of fetching the target. */
  relay?: boolean;
  /** Origin of the farm for links and docs. */
  publicOrigin: string;
  /** When the world's lifetime ends (ms since the Unix epoch): the alarm then deletes this object's storage. */
  expiresAtMs?: number;
  /** Vendor requests this role may take (a participant's quota); null: no limit. */
  requestQuota?: number | null;
}

/**
 * One vendor instance of one world: seeded records, logs and tokens in this
 * object's SQLite storage.
 */
export class WorldObject extends DurableObject<Env> {
  private config: WorldConfig | null = null;
  private engine: VendorEngine | null = null;
  /** Built states and their hashes by checkpoint: pure functions of (declaration, seed, scale, checkpoint), so safe to reuse. */
  private readonly states = new Map<number, { packed: PackedState; hash?: string }>();
  /** The store and version a recreate to `checkpoint` left, to tell whether the records changed since. */
  private pristine: { checkpoint: number; records: RecordsKey } | null = null;
  /** The records of the last snapshot and the state they were read at (a read-only scenario ends where the last one did), with their JSON once written. */
  private lastSnapshot: { records: RecordsKey; entities: Snapshot["entities"]; entitiesJson?: string } | null = null;
  /** State hash and the record-store version it was computed at. */
  private hash: { version: number; value: string } | null = null;
  private dispatcher: WebhookDispatcher | null = null;
  /** Delivery attempts under way (already off the schedule, not yet logged). */
  private inFlight = 0;
  /** The documentation set and the base URL it was rendered for (one: the base URL only changes for worlds of older releases). */
  private readonly docs = new DocsServer();

  /**
   * Where this object and its engine read the time: the host's, or in the
   * workerd tests a `TestClock` they move through `runInDurableObject` (a
   * field, not a method: no RPC call reaches it).
   */
  readonly clock: Clock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.clock = clockFor(env);
    // An object no world was created in stays without storage: requests to made-up world ids cost nothing.
    if (!worldSchemaExists(ctx.storage.sql)) return;
    this.setUpSchema();
    const rows = ctx.storage.sql.exec("SELECT value FROM meta WHERE key = 'config'").toArray();
    if (rows.length) this.load({ scale: 1, rateLimits: true, docsProfile: "true", armedFaults: [], webhookTarget: null, relay: false, ...JSON.parse(rows[0].value as string) });
  }

  private setUpSchema(): void {
    migrateWorld(this.ctx.storage.sql);
  }

  /** Vendor root for links and docs: the farm origin the world was made at, else (older worlds) the one the request came to. */
  private baseUrl(requestOrigin: string): string {
    const origin = this.config?.publicOrigin ?? requestOrigin;
    return `${origin}/w/${this.config!.world}/${this.config!.role}`;
  }

  private load(config: WorldConfig): void {
    const vendor = findVendor(config.vendor);
    if (!vendor) throw new Error(`world ${config.world} references unknown vendor ${config.vendor}`);
    this.config = config;
    this.engine = new VendorEngine(
      vendor,
      this.ctx.storage.sql,
      config,
      {
        changed: (entity, op, row, extra) => this.announce(entity, op, row, extra),
        drainDeadLetters: () => this.dispatcher?.drainDeadLetters() ?? [],
        deliverTest: (event) => this.deliverTest(event),
      },
      this.clock,
    );
    this.dispatcher = new WebhookDispatcher(vendor, this.ctx.storage.sql, config);
    this.hash = null;
  }

  private save(config: WorldConfig): void {
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('config', ?)", JSON.stringify(config));
    this.load(config);
  }

  /** Seeds the role. Returns the per-world credentials. The control plane validates arguments first. */
  async init(args: InitArgs): Promise<{ credentials: Record<string, string>; status: RoleStatus }> {
    if (this.config) throw new Error(`role ${args.role} of world ${args.world} already exists`);
    const vendor = findVendor(args.vendor);
    if (!vendor) throw new Error(`unknown vendor "${args.vendor}"`);
    this.checkCheckpoint(args.checkpoint, vendor.timeline.at(-1)?.checkpoint ?? 0);
    this.setUpSchema();
    const config: WorldConfig = {
      ...args,
      webhookTarget: args.webhookTarget ?? null,
      relay: args.relay ?? false,
      armedFaults: [],
      epoch: 0,
      epochStartSeq: 0,
      credentials: mintCredentials(vendor.auth),
    };
    const schedule = new Schedule(this.ctx.storage.sql);
    const seeding = new VendorEngine(vendor, this.ctx.storage.sql, config).records;
    this.ctx.storage.transactionSync(() => {
      seeding.replaceAll(this.stateFor(vendor, args.seed, args.checkpoint, args.scale).packed);
      this.save(config);
      if (args.expiresAtMs !== undefined) schedule.add(args.expiresAtMs, { kind: "world-expire" });
    });
    const { records } = this.require().engine;
    records.adopt(seeding);
    this.pristine = { checkpoint: args.checkpoint, records: records.stateKey() };
    await schedule.arm(this.ctx.storage);
    return { credentials: config.credentials, status: await this.status() };
  }

  private checkCheckpoint(checkpoint: number, last: number): void {
    if (!Number.isInteger(checkpoint) || checkpoint < 0 || checkpoint > last) throw new Error(`checkpoint must be an integer from 0 to ${last}`);
  }

  /** Resets records to a checkpoint, forgets writes, tokens and quotas, and opens a new log epoch. */
  async recreate(checkpoint: number, faults: string[] = []): Promise<RoleStatus> {
    const { config, engine } = this.require();
    this.checkCheckpoint(checkpoint, engine.vendor.timeline.at(-1)?.checkpoint ?? 0);
    const next: WorldConfig = { ...config, checkpoint, armedFaults: faults, epoch: config.epoch + 1, epochStartSeq: engine.logs.nextRequestSeq() - 1 };
    const state = this.stateAt(checkpoint);
    // Records still as the last recreate to this checkpoint left them (a read-only scenario) need not be written again.
    const unchanged = this.pristine?.checkpoint === checkpoint && sameRecords(this.pristine.records, engine.records.stateKey());
    engine.logs.flush();
    this.ctx.storage.transactionSync(() => {
      if (!unchanged) engine.records.replaceAll(state.packed);
      engine.tokens.clear();
      for (const table of ["idempotency", "rate", "accepted_writes"]) this.ctx.storage.sql.exec(`DELETE FROM ${table}`);
      this.save(next);
    });
    const fresh = this.require().engine;
    fresh.records.adopt(engine.records);
    this.pristine = { checkpoint, records: fresh.records.stateKey() };
    if (state.hash) this.hash = { version: fresh.records.version, value: state.hash };
    state.hash = this.stateHash(fresh);
    await this.scheduleFaults(fresh);
    if (checkpoint > 0 && fresh.vendor.webhooks && this.config!.webhookTarget) {
      const events = checkpointEvents(fresh.vendor, buildState(fresh.vendor, config.seed, checkpoint - 1, config.scale), buildState(fresh.vendor, config.seed, checkpoint, config.scale));
      await this.queue(this.dispatcher!.enqueue(events, this.clock.now(), fresh.faults));
    }
    return this.status();
  }

  private stateAt(checkpoint: number): { packed: PackedState; hash?: string } {
    const { config, engine } = this.require();
    return this.stateFor(engine.vendor, config.seed, checkpoint, config.scale);
  }

  private stateFor(vendor: Vendor, seed: number, checkpoint: number, scale: number): { packed: PackedState; hash?: string } {
    let state = this.states.get(checkpoint);
    if (!state) {
      state = { packed: packState(buildState(vendor, seed, checkpoint, scale)) };
      this.states.set(checkpoint, state);
    }
    return state;
  }

  private stateHash(engine: VendorEngine): string {
    if (this.hash?.version !== engine.records.version) {
      this.hash = { version: engine.records.version, value: createHash("sha256").update(engine.records.canonical()).digest("hex") };
    }
    return this.hash.value;
  }

  async status(): Promise<RoleStatus> {
    const { config, engine } = this.require();
    const sql = this.ctx.storage.sql;
    return {
      vendor: config.vendor,
      checkpoint: config.checkpoint,
      epoch: config.epoch,
      stateHash: this.stateHash(engine),
      records: sql.exec("SELECT count(*) AS n FROM records").one().n as number,
      requests: engine.logs.nextRequestSeq() - 1 - config.epochStartSeq,
      firedFaults: this.firedFaults(config.epoch),
      pendingDeliveries: this.pendingDeliveries(),
      unloggedRequests: engine.logs.unlogged(config.epoch),
    };
  }

  /** Puts the armed timed faults of the new epoch on the alarm. */
  private async scheduleFaults(engine: VendorEngine): Promise<void> {
    const schedule = new Schedule(this.ctx.storage.sql);
    schedule.clear();
    this.ctx.storage.sql.exec("UPDATE outbox SET state = 'done' WHERE state != 'done'");
    const now = this.clock.now();
    for (const w of engine.faults.timedWindows(engine.vendor.faults)) {
      schedule.add(now + w.openAfterS * 1000, { kind: "fault-window", fault: w.fault, active: true });
      schedule.add(now + w.closeAfterS * 1000, { kind: "fault-window", fault: w.fault, active: false });
    }
    await schedule.arm(this.ctx.storage);
  }

  /**
   * What each kind of scheduled event does: `apply` runs inside the
   * transaction that removes the event, `after` (outbound calls) once it has
   * committed, so a retried alarm never repeats either.
   */
  private readonly handlers: { [K in ScheduledEvent["kind"]]: { apply?: (e: Extract<ScheduledEvent, { kind: K }>) => void; after?: (e: Extract<ScheduledEvent, { kind: K }>) => Promise<void> } } = {
    "fault-window": { apply: (e) => this.engine!.faults.setWindow(e.fault, e.active) },
    "world-expire": { after: () => this.end("expired") },
    "webhook-deliver": {
      after: async (e) => {
        this.inFlight += 1;
        try {
          const retry = await this.dispatcher!.attempt(
            { eventId: e.eventId, attempt: e.attempt, tampered: e.tampered, skewS: e.skewS, duplicate: e.duplicate, fault: e.fault ?? undefined },
            this.clock.now(),
          );
          if (retry) await this.queue([retry]);
        } finally {
          this.inFlight -= 1;
        }
      },
    },
  };

  /** Applies the due scheduled events, each exactly once, then re-arms the alarm for the next. */
  async alarm(): Promise<void> {
    if (!this.engine || !this.dispatcher) return;
    const schedule = new Schedule(this.ctx.storage.sql);
    for (const due of schedule.dueAt(this.clock.now())) {
      const handler = this.handlers[due.event.kind] as { apply?: (e: ScheduledEvent) => void; after?: (e: ScheduledEvent) => Promise<void> };
      this.ctx.storage.transactionSync(() => {
        handler.apply?.(due.event);
        schedule.done(due.id);
      });
      await handler.after?.(due.event);
      // An event that ended the world took the schedule with it.
      if (!this.engine) return;
    }
    await schedule.arm(this.ctx.storage);
  }

  /**
   * Ends this role of the world: its storage is deleted (records, logs,
   * tokens, schedule), so it answers as an unknown world from now on. An
   * expiry also marks the world ended in the archive; a DELETE does that itself.
   */
  async end(reason: "expired" | "deleted"): Promise<void> {
    const world = this.config?.world;
    this.engine?.logs.flush();
    this.config = null;
    this.engine = null;
    this.dispatcher = null;
    this.states.clear();
    this.hash = null;
    this.lastSnapshot = null;
    this.pristine = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    if (world && reason === "expired") await this.env.GRADER.endWorld(world, "expired", this.clock.now());
  }

  /** Puts delivery jobs on the alarm's schedule. */
  private async queue(jobs: DeliveryJob[]): Promise<void> {
    const schedule = new Schedule(this.ctx.storage.sql);
    for (const j of jobs)
      schedule.add(j.dueMs, {
        kind: "webhook-deliver",
        eventId: j.eventId,
        attempt: j.attempt,
        tampered: j.tampered ?? false,
        skewS: j.skewS ?? 0,
        duplicate: j.duplicate ?? false,
        fault: j.fault ?? null,
      });
    if (jobs.length) await schedule.arm(this.ctx.storage);
  }

  /** A change made through the API becomes an event (when someone listens). */
  private announce(entity: string, op: string, row: RecordRow, extra?: Record<string, unknown>): void {
    const engine = this.engine!;
    const hooks = engine.vendor.webhooks;
    if (!hooks || !hooks.entities.includes(entity) || !this.config?.webhookTarget) return;
    const resource = engine.vendor.resources.find((r) => r.name === entity)!;
    const record = serializeRecord(engine.vendor, resource, row, allFlags(engine.vendor));
    void this.queue(this.dispatcher!.enqueue([{ type: `${entity}.${op}`, entity, recordId: row.id, atMs: row.updatedMs, record, extra }], this.clock.now(), engine.faults));
  }

  /** A test event the vendor's test-delivery route asked for: queued like any event, to the registered receiver. */
  private deliverTest(event: VendorEvent): string {
    const engine = this.engine!;
    void this.queue(this.dispatcher!.enqueue([event], this.clock.now(), engine.faults));
    return this.dispatcher!.lastEventId()!;
  }

  /** Webhook deliveries of an epoch (or all). */
  webhookLog(epoch?: number): DeliveryLogEntry[] {
    this.require();
    return this.dispatcher!.log(epoch);
  }

  /** Hands out pending relay deliveries. */
  drainOutbox() {
    this.require();
    return this.dispatcher!.drainOutbox();
  }

  /** Records a relayed delivery's outcome; false when the id is unknown or already reported. */
  async relayResult(id: string, code: number | null, answer = ""): Promise<boolean> {
    this.require();
    const r = this.dispatcher!.relayResult(id, code, this.clock.now(), answer);
    if (!r) return false;
    if (r.job) await this.queue([r.job]);
    return true;
  }

  /**
   * Points deliveries at a target (or the relay). The config is changed in
   * place: the engine and dispatcher share it, and rebuilding them could
   * drop log rows of a request being served.
   */
  async setWebhookTarget(url: string | null, relay: boolean): Promise<void> {
    const { config } = this.require();
    config.webhookTarget = url;
    config.relay = relay;
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('config', ?)", JSON.stringify(config));
  }

  private pendingDeliveries(): number {
    const sql = this.ctx.storage.sql;
    const scheduled = new Schedule(sql).pending("webhook-deliver");
    const parked = sql.exec("SELECT count(*) AS n FROM outbox WHERE state != 'done'").one().n as number;
    return scheduled + parked + this.inFlight;
  }

  private firedFaults(epoch: number): string[] {
    const fired = this.engine ? this.engine.logs.faultsFired(epoch) : new Set<string>();
    for (const r of this.ctx.storage.sql.exec("SELECT id FROM fault_fired WHERE epoch = ?", epoch).toArray()) fired.add(r.id as string);
    return [...fired];
  }

  /** Every record as the vendor serves it (all optional fields on), with its deletion state: the ground truth. */
  snapshot(): Snapshot {
    const { config, engine } = this.require();
    const records = engine.records.stateKey();
    if (this.lastSnapshot && sameRecords(this.lastSnapshot.records, records)) return { checkpoint: config.checkpoint, epoch: config.epoch, entities: this.lastSnapshot.entities };
    const snap = takeSnapshot(this.ctx.storage.sql, engine.vendor, config);
    this.lastSnapshot = { records, entities: snap.entities };
    return snap;
  }

  /**
   * Takes the ground-truth snapshot `label` of the current epoch and keeps it
   * for sealing (replacing one of the same label in this epoch). Answers a
   * receipt, never the records; null when the epoch holds its most labels.
   */
  labelSnapshot(label: string): { label: string; epoch: number; checkpoint: number; records: number } | null {
    const snap = this.snapshot();
    const last = this.lastSnapshot!;
    last.entitiesJson ??= JSON.stringify(snap.entities);
    const json = `{"checkpoint":${snap.checkpoint},"epoch":${snap.epoch},"entities":${last.entitiesJson}}`;
    if (!storeSnapshot(this.ctx.storage.sql, snap.epoch, label, json)) return null;
    const records = Object.values(snap.entities).reduce((n, rows) => n + rows.length, 0);
    return { label, epoch: snap.epoch, checkpoint: snap.checkpoint, records };
  }

  /** The labelled snapshots of the given epochs as JSON text by label (a label of a later epoch in the list wins). */
  labelledSnapshots(epochs: number[]): Record<string, string> {
    this.require();
    return readSnapshots(this.ctx.storage.sql, epochs);
  }

  /** The current log epoch: how many recreates this role has had. */
  currentEpoch(): number {
    return this.require().config.epoch;
  }

  /** Secret credential values and every token issued so far. */
  secrets(): string[] {
    const { config, engine } = this.require();
    const secretNames = engine.vendor.auth.credentials.filter((c) => c.secret).map((c) => c.name);
    return [...secretNames.map((n) => config.credentials[n]), ...engine.tokens.everIssued()];
  }

  requestLog(epoch?: number): RequestLogEntry[] {
    return this.require().engine.logs.requests(epoch);
  }

  /** Requests of an epoch that have no log row at all (storage refused even a stand-in). */
  unloggedRequests(epoch: number): number {
    return this.require().engine.logs.unlogged(epoch);
  }

  tokenLog(epoch?: number): TokenLogEntry[] {
    return this.require().engine.logs.tokens(epoch);
  }

  /**
   * Serves the documentation under `_docs/`: `index.html` (also at `_docs/`),
   * `<page>.html`, `<page>.md` and `openapi.json`, for this world's profile,
   * with examples from its seeded data and its real base URL. Not logged:
   * reading docs is not API traffic.
   */
  async serveDocs(subpath: string, requestUrl: string): Promise<Response> {
    if (!this.config || !this.engine) return Response.json({ error: "unknown world or role" }, { status: 404 });
    return this.docs.serve(this.engine.vendor, this.config, this.baseUrl(new URL(requestUrl).origin), subpath);
  }

  /** Serves the vendor surface. Unknown worlds answer 404 without creating state. */
  async serveVendor(call: VendorCall): Promise<VendorAnswer> {
    if (!this.engine) {
      await call.rest?.cancel();
      return plainJson(404, { error: "unknown world or role" });
    }
    // The farm's liveness probe, not API traffic: answered by the object, never logged.
    if (call.path === "/_health") {
      await call.rest?.cancel();
      return plainJson(200, { status: "ok" });
    }
    return this.engine.serve(call, this.baseUrl(call.origin));
  }

  private require(): { config: WorldConfig; engine: VendorEngine } {
    if (!this.config || !this.engine) throw new Error("unknown world or role");
    return { config: this.config, engine: this.engine };
  }
}

const UTF8 = new TextEncoder();

function plainJson(status: number, body: unknown): VendorAnswer {
  return { status, headers: { "content-type": "application/json" }, body: exactBuffer(UTF8.encode(JSON.stringify(body))), cutAfterBytes: null };
}
