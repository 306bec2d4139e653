import type { Vendor } from "../../declarations/schema/vendor.ts";
import { handleMint } from "./auth/mint.ts";
import { TokenStore } from "./auth/token-store.ts";
import { verifyRequest } from "./auth/verify.ts";
import { formatTime, vendorNow } from "./data/clock.ts";
import type { HandlerContext, LogNotes } from "./handler-context.ts";
import { redactHeaders, secretHeaderNames } from "./http/redact.ts";
import { bodyText } from "./http/raw-json.ts";
import { vendorError, type Reply } from "./http/reply.ts";
import { readVendorRequest, type VendorRequest } from "./http/vendor-request.ts";
import { BODY_LIMIT_BYTES } from "./http/request-body.ts";
import type { VendorCall } from "../surface/vendor-call.ts";
import { getRecord } from "./protocol/get.ts";
import { IdempotencyLedger } from "./protocol/idempotency.ts";
import { listRecords } from "./protocol/list.ts";
import { rateLimit, tooManyRequests } from "./protocol/rate-limit.ts";
import { RowJsonCache } from "./protocol/row-json-cache.ts";
import { listTombstones } from "./protocol/tombstones.ts";
import { handleWrite } from "./protocol/writes.ts";
import { FaultState } from "./faults/fault-state.ts";
import { liesTouched } from "./lies/touches.ts";
import { readWarnings } from "./protocol/warnings.ts";
import { RouteTable, type RouteAction } from "./routing/route-table.ts";
import { LogStore } from "./store/logs.ts";
import type { AuthOutcome } from "../../declarations/evidence/logs.ts";
import { RecordStore } from "./store/records.ts";
import type { WorldConfig } from "./world-config.ts";

/** What the engine asks of the object that hosts it (the world Durable Object). */
export interface EngineHooks {
  /** A change made through the API (webhook vendors announce it). */
  changed: HandlerContext["changed"];
  /** A client registered a webhook target through the vendor's subscription endpoint. */
  subscribe: (url: string) => void;
  /** Takes the undrained dead letters (ack-body vendors). */
  drainDeadLetters: () => unknown[];
}

/** Outcome of the pipeline before it becomes a Response and a log row. */
interface Served {
  reply: Reply;
  /** The route that served the request, or null when none matched. */
  action: RouteAction | null;
  auth: AuthOutcome;
  rateLimited: boolean;
  retryAfter: number | null;
  extraHeaders: Record<string, string>;
}

/**
 * Serves one vendor's surface from its declaration: routing, auth, rate
 * limits, reads and writes. Every request is logged before it is answered.
 */
export class VendorEngine {
  private readonly routes: RouteTable;
  private readonly secretNames: Set<string>;
  readonly records: RecordStore;
  readonly logs: LogStore;
  readonly tokens: TokenStore;
  private readonly rowCache = new RowJsonCache();
  readonly faults: FaultState;

  readonly vendor: Vendor;
  private readonly sql: SqlStorage;
  private readonly config: WorldConfig;

  private readonly hooks: EngineHooks;

  constructor(vendor: Vendor, sql: SqlStorage, config: WorldConfig, hooks: Partial<EngineHooks> = {}) {
    this.hooks = { changed: () => {}, subscribe: () => {}, drainDeadLetters: () => [], ...hooks };
    this.vendor = vendor;
    this.sql = sql;
    this.config = config;
    this.faults = new FaultState(
      vendor.faults.filter((f) => (config.armedFaults ?? []).includes(f.id)),
      sql,
      config.epoch,
    );
    this.routes = new RouteTable(vendor);
    this.secretNames = secretHeaderNames(vendor);
    this.records = new RecordStore(sql);
    this.logs = new LogStore(sql);
    this.tokens = new TokenStore(sql);
  }

  /** Serves one request; `baseUrl` is the vendor root as the client reached it. */
  async serve(call: VendorCall, baseUrl: string): Promise<Response> {
    const seq = this.logs.allocateRequestSeq();
    // Secrets are only needed when a body must be cut: most requests never ask.
    const req = await readVendorRequest(call, seq, Date.now(), () => this.secretValues());
    const requestsInEpoch = seq - 1 - this.config.epochStartSeq;
    const notes: LogNotes = { idempotencyKey: null, faults: [], lies: [] };
    let served: Served;
    try {
      served = await this.dispatch(req, notes, requestsInEpoch, baseUrl);
    } catch (err) {
      served = { reply: vendorError(this.vendor, 500, "internal_error", "unexpected error"), action: null, auth: "ok", rateLimited: false, retryAfter: null, extraHeaders: {} };
      console.error("vendor engine failure", err);
    }
    const { reply } = served;
    // Only a world whose docs tell the lies can have a request misled by one.
    if (this.config.docsProfile !== "true") notes.lies = liesTouched(this.vendor, { action: served.action, status: reply.status, authOutcome: served.auth });
    const headers = new Headers({ "content-type": "application/json; charset=utf-8", ...served.extraHeaders, ...reply.headers });
    headers.set("date", new Date(req.nowMs + this.vendor.clock.wireOffsetS * 1000).toUTCString());
    if (this.vendor.clock.serverTimeHeader) {
      headers.set(this.vendor.clock.serverTimeHeader, String(formatTime(vendorNow(this.vendor.clock, this.config.checkpoint, requestsInEpoch), this.vendor.clock.format)));
    }
    const secrets = this.secretValues();
    const logged = this.logs.appendRequest(
      {
        seq,
        epoch: this.config.epoch,
        ts: req.nowMs / 1000,
        method: req.method,
        path: req.path,
        query: Object.fromEntries(req.query),
        headers: redactHeaders(req.headers, this.secretNames, secrets),
        body: req.logged.body,
        bodyBytes: req.logged.bytes,
        bodyNote: req.logged.note,
        bodySha256: req.logged.sha256,
        status: reply.status,
        authOutcome: served.auth,
        rateLimited: served.rateLimited,
        retryAfter: served.retryAfter,
        idempotencyKey: notes.idempotencyKey,
        faults: notes.faults,
        lies: notes.lies,
      },
      secrets,
    );
    if (!logged) {
      const failure = vendorError(this.vendor, 500, "log_unavailable", "the request could not be logged");
      return new Response(bodyText(failure.body), { status: 500, headers: { "content-type": "application/json; charset=utf-8" } });
    }
    const body = reply.body === null || req.method === "HEAD" ? null : bodyText(reply.body);
    return new Response(body, { status: reply.status, headers });
  }

  private secretValues(): string[] {
    const secrets = this.vendor.auth.credentials.filter((c) => c.secret).map((c) => this.config.credentials[c.name]);
    return [...secrets, ...this.tokens.liveValues()];
  }

  private async dispatch(req: VendorRequest, notes: LogNotes, requestsInEpoch: number, baseUrl: string): Promise<Served> {
    const match = this.routes.match(req.method, req.path);
    const action = match.found ? match.action : null;
    const plain = (reply: Reply, auth: AuthOutcome): Served => ({ reply, action, auth, rateLimited: false, retryAfter: null, extraHeaders: {} });
    if (req.bodyTooLarge) return plain(vendorError(this.vendor, 413, "payload_too_large", `request bodies are limited to ${BODY_LIMIT_BYTES} bytes`), "missing");
    const injected = await this.injectFaults(req, notes, requestsInEpoch);
    if (injected) return { ...injected, action };
    if (!match.found) {
      const auth = await verifyRequest(req, this.vendor, this.config.credentials, this.tokens);
      if (match.allowed.length)
        return plain(vendorError(this.vendor, 405, "method_not_allowed", `${req.method} is not allowed here`, {}, { allow: [...new Set(match.allowed)].join(", ") }), auth.outcome);
      return plain(vendorError(this.vendor, 404, "not_found", `no route for ${req.method} ${req.path}`), auth.outcome);
    }
    if (match.action.kind === "mint") {
      const result = handleMint(req, match.action.mint, this.config.credentials, this.tokens);
      for (const m of result.minted) this.logs.appendToken({ epoch: this.config.epoch, ts: req.nowMs / 1000, ...m });
      return plain(result.reply, result.auth);
    }
    // A write's idempotency key is logged even when auth or the rate limit refuses it, so
    // conduct checks see that a retry after a 429 reused its key.
    if (match.action.kind === "write") notes.idempotencyKey = new IdempotencyLedger(this.sql).keyOf(match.action.write, req.headers, req.body);
    const sunset = this.vendor.auth.legacy ? this.faults.legacyRetired(req.seq) : null;
    const auth = await verifyRequest(req, this.vendor, this.config.credentials, this.tokens, sunset !== null);
    if (auth.outcome !== "ok") {
      if (sunset && auth.code === "legacy_auth_retired") {
        notes.faults.push(sunset.id);
        return plain(vendorError(this.vendor, 401, auth.code, auth.reason), "invalid");
      }
      const revocation = this.faults.revocation();
      if (revocation && this.tokens.presentsRevoked(req.headers, this.vendor.auth.present)) {
        notes.faults.push(revocation.id);
        return plain(vendorError(this.vendor, revocation.status, "token_revoked", "the token was revoked"), "invalid");
      }
      return plain(vendorError(this.vendor, 401, auth.code, auth.reason), auth.outcome);
    }
    const rate = this.config.rateLimits ? rateLimit(this.vendor, this.sql, "client", req.nowMs) : { refusal: null, retryAfter: null, headers: {} };
    if (rate.refusal) return { reply: rate.refusal, action, auth: "ok", rateLimited: true, retryAfter: rate.retryAfter, extraHeaders: rate.headers };
    const ctx: HandlerContext = {
      vendor: this.vendor,
      config: this.config,
      baseUrl,
      req,
      params: match.params,
      records: this.records,
      rowCache: this.rowCache,
      sql: this.sql,
      requestsInEpoch,
      notes,
      faults: this.faults,
      changed: this.hooks.changed,
    };
    const reply = this.run(ctx, match.action);
    const a = match.action;
    const warnings = a.kind === "list" || a.kind === "get" ? readWarnings(this.vendor, a.resource, req.query, a.kind === "list") : [];
    const extraHeaders = warnings.length ? { ...rate.headers, warning: warnings.join(", ") } : rate.headers;
    return { reply, action, auth: "ok", rateLimited: false, retryAfter: null, extraHeaders };
  }

  /** `POST <subscriptionPath> {url}`: deliveries go to `url` from now on. */
  private subscribe(ctx: HandlerContext): Reply {
    const url = ctx.req.body?.url;
    let ok = typeof url === "string";
    if (ok) {
      try {
        ok = ["http:", "https:"].includes(new URL(url as string).protocol);
      } catch {
        ok = false;
      }
    }
    if (!ok) return vendorError(this.vendor, 422, "validation_failed", "url must be an http(s) URL", { [this.vendor.errors.fieldErrorsField]: [{ field: "url", message: "must be an http(s) URL" }] });
    this.hooks.subscribe(url as string);
    return { status: 201, headers: {}, body: { url, events: this.vendor.webhooks!.entities.flatMap((e) => [`${e}.created`, `${e}.updated`, `${e}.deleted`]) } };
  }

  /**
   * Faults that answer before routing (maintenance 503, a forced 429 window)
   * or change the world at their trigger (revoked tokens, list drift,
   * invalidated cursors), plus delays. Null when the request goes on.
   */
  private async injectFaults(req: VendorRequest, notes: LogNotes, requestsInEpoch: number): Promise<Omit<Served, "action"> | null> {
    const f = this.faults;
    f.observe(req.path, requestsInEpoch);
    for (const due of f.dueOneShots(req.seq)) {
      if (due.kind === "token-revoked") this.tokens.revokeAll();
      if (due.kind === "page-drift") this.records.driftToHead(due.resource, due.inserts);
    }
    const maintenance = f.maintenance();
    if (maintenance) {
      notes.faults.push(maintenance.id);
      const reply = vendorError(this.vendor, 503, "maintenance", "the service is down for maintenance", {}, { "retry-after": String(maintenance.retryAfterS) });
      return { reply, auth: "ok", rateLimited: false, retryAfter: maintenance.retryAfterS, extraHeaders: {} };
    }
    const window = f.rateWindow(req.nowMs);
    if (window) {
      notes.faults.push(window.fault.id);
      return { reply: tooManyRequests(this.vendor, window.fault.retryAfter, window.retryAfter, req.nowMs), auth: "ok", rateLimited: true, retryAfter: window.retryAfter, extraHeaders: {} };
    }
    const slow = f.slow();
    if (slow) {
      notes.faults.push(slow.id);
      await new Promise((resolve) => setTimeout(resolve, slow.delayMs));
    }
    return null;
  }

  private run(ctx: HandlerContext, action: Exclude<RouteAction, { kind: "mint" }>): Reply {
    switch (action.kind) {
      case "list":
        return listRecords(ctx, action.resource);
      case "get":
        return getRecord(ctx, action.resource);
      case "tombstones":
        return listTombstones(ctx);
      case "write":
        return handleWrite(ctx, action.write);
      case "subscribe":
        return this.subscribe(ctx);
      case "dead-letters":
        return { status: 200, headers: {}, body: { data: this.hooks.drainDeadLetters() } };
    }
  }
}
