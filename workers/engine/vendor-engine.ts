/**
 * @module vendor-engine
 * Serves one vendor's surface from its declaration. `serve` is the whole
 * request path, stage by stage, top to bottom: read the request, faults
 * before routing, route, mint, auth, rate limit, the route's action (inside
 * which faults shape lists, reads and writes), warnings, lies, respond, log.
 * Mechanics act only through their hooks; no stage names a kind.
 */
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { type Clock, SYSTEM_CLOCK } from "./clock.ts";
import type { AuthOutcome } from "../../evidence/logs.ts";
import { json, vendorError, type Reply } from "../../mechanics/kit/reply.ts";
import type { VendorAnswer, VendorCall } from "../world/vendor-rpc.ts";
import { handleMint } from "./auth/mint.ts";
import { TokenStore } from "./auth/token-store.ts";
import { verifyRequest } from "./auth/verify.ts";
import { formatTime, vendorNow } from "./data/clock.ts";
import { FaultRuntime } from "./faults/fault-runtime.ts";
import type { HandlerContext, LogNotes } from "./handler-context.ts";
import { httpDate } from "./http/http-date.ts";
import { bodyBuffer } from "./http/raw-json.ts";
import { redactHeaders, secretHeaderNames } from "./http/redact.ts";
import { readVendorRequest, type VendorRequest } from "./http/vendor-request.ts";
import { liesTouched } from "./lies/touches.ts";
import { getRecord } from "./protocol/get.ts";
import { IdempotencyLedger } from "./protocol/idempotency.ts";
import { listRecords } from "./protocol/list.ts";
import { rateLimit, tooManyRequests } from "./protocol/rate-limit.ts";
import { readWarnings } from "./protocol/warnings.ts";
import { applyChange, handleWrite } from "./protocol/writes.ts";
import { landDueWrites } from "./protocol/accepted.ts";
import { bodyLimit, receiveUpload } from "./protocol/uploads.ts";
import { type OperationAction, operationAction, operationBody, operationContext, parseGatewayCall, refuseCall, renderGatewayReply } from "./protocol/gateway.ts";
import { describeGateway } from "./protocol/gateway-description.ts";
import type { ParsedCall } from "../../mechanics/gateways/define.ts";
import { type RouteAction, RouteTable } from "./routing/route-table.ts";
import { LogStore } from "./store/logs.ts";
import { serveTestDelivery } from "./webhooks/test-delivery.ts";
import type { VendorEvent } from "./webhooks/events.ts";
import { RecordStore } from "./store/records.ts";
import type { WorldConfig } from "./world-config.ts";

/** What the engine asks of the object that hosts it (the world Durable Object). */
export interface EngineHooks {
  /** A change made through the API (webhook vendors announce it). */
  changed: HandlerContext["changed"];
  /** Takes the undrained dead letters (ack-body vendors). */
  drainDeadLetters: () => unknown[];
  /** Queues a test event for delivery to the registered receiver; returns its event id. */
  deliverTest: (event: VendorEvent) => string;
}

/** What one request collects on its way through the stages, for the response and its log row. */
interface Turn {
  req: VendorRequest;
  /** Requests served in this epoch before this one. */
  requestsInEpoch: number;
  notes: LogNotes;
  /** The route that served the request, or null when none matched. */
  action: RouteAction | null;
  /** A gateway request's call, as read from its body. */
  call?: ParsedCall;
  /** What a gateway call's operation runs. */
  inner?: RouteAction;
  auth: AuthOutcome;
  rateLimited: boolean;
  retryAfter: number | null;
  extraHeaders: Record<string, string>;
}

export class VendorEngine {
  readonly vendor: Vendor;
  readonly records: RecordStore;
  readonly logs: LogStore;
  readonly tokens: TokenStore;
  readonly faults: FaultRuntime;
  private readonly routes: RouteTable;
  private readonly secretNames: Set<string>;
  private readonly sql: SqlStorage;
  private readonly config: WorldConfig;
  private readonly hooks: EngineHooks;

  /** Where the engine reads the time and waits (a fault's delay). */
  private readonly clock: Clock;

  constructor(vendor: Vendor, sql: SqlStorage, config: WorldConfig, hooks: Partial<EngineHooks> = {}, clock: Clock = SYSTEM_CLOCK) {
    this.clock = clock;
    this.hooks = {
      changed: () => {},
      drainDeadLetters: () => [],
      deliverTest: () => {
        throw new Error("this engine delivers no webhooks");
      },
      ...hooks,
    };
    this.vendor = vendor;
    this.sql = sql;
    this.config = config;
    const armed = vendor.faults.filter((f) => (config.armedFaults ?? []).includes(f.id));
    this.faults = new FaultRuntime(armed, sql, config.epoch, {
      error: (status, code, message, extra, headers) => vendorError(vendor, status, code, message, extra, headers),
      tooManyRequests: (style, seconds, nowMs) => tooManyRequests(vendor, style, seconds, nowMs),
    });
    this.routes = new RouteTable(vendor);
    this.secretNames = secretHeaderNames(vendor);
    this.records = new RecordStore(sql);
    this.logs = new LogStore(sql);
    this.tokens = new TokenStore(sql);
  }

  /** Serves one request; `baseUrl` is the vendor root as the client reached it. */
  async serve(call: VendorCall, baseUrl: string): Promise<VendorAnswer> {
    const seq = this.logs.allocateRequestSeq();
    const nowMs = this.clock.now();

    // Stage: read the request. Secrets are only needed when a body must be cut.
    const req = await readVendorRequest(call, seq, nowMs, () => this.secretValues());
    const turn: Turn = {
      req,
      requestsInEpoch: seq - 1 - this.config.epochStartSeq,
      notes: { idempotencyKey: null, faults: [], lies: [] },
      action: null,
      auth: "ok",
      rateLimited: false,
      retryAfter: null,
      extraHeaders: {},
    };
    let reply: Reply;
    try {
      reply = await this.answer(turn, baseUrl);
    } catch (err) {
      reply = vendorError(this.vendor, 500, "internal_error", "unexpected error");
      console.error("vendor engine failure", err);
    }

    // Stage: a gateway's answer goes out in its envelope, whatever stage gave it.
    if (turn.action?.kind === "gateway") {
      const operation = turn.call?.ok ? turn.call.call.operation : null;
      reply = renderGatewayReply(this.vendor, turn.action.gateway, operation, (turn.inner as OperationAction | undefined) ?? null, reply);
    }

    // Stage: lies. Only a world whose docs tell the lies can have a request misled by one.
    if (this.config.docsProfile !== "true") turn.notes.lies = liesTouched(this.vendor, turn.inner ?? turn.action, reply.status, turn.auth);

    // Stage: respond (headers), and faults that cut the response off on the wire.
    const headers = this.responseHeaders(turn, reply);
    const body = reply.body === null || req.method === "HEAD" ? null : bodyBuffer(reply.body);
    const cut = body === null ? null : this.faults.onRespond(() => body.byteLength);
    if (cut) turn.notes.faults.push(cut.fault);
    this.faults.persist();

    // Stage: log, before anything leaves: the answer waits until its row is written, and the output gate until storage has it.
    const logged = this.log(turn, reply);
    await this.logs.written();
    if (logged === null) {
      const failure = vendorError(this.vendor, 500, "log_unavailable", "the request could not be logged");
      return { status: 500, headers: { "content-type": "application/json; charset=utf-8" }, body: bodyBuffer(failure.body), cutAfterBytes: null };
    }

    return { status: reply.status, headers, body, cutAfterBytes: cut ? cut.cutAfterBytes : null };
  }

  /** The stages between reading a request and responding: what the vendor answers. */
  private async answer(turn: Turn, baseUrl: string): Promise<Reply> {
    const { req, notes } = turn;

    const match = this.routes.match(req.method, req.path);
    turn.action = match.found ? match.action : null;

    // A gateway call is read here (pure); one that cannot be read is refused after auth.
    if (turn.action?.kind === "gateway") {
      turn.call = parseGatewayCall(turn.action.gateway, req);
      if (turn.call.ok) turn.inner = operationAction(this.vendor, turn.action.gateway, turn.call.call.operation);
    }

    // A write's idempotency key is logged whatever refuses it (a fault's 429 window, auth,
    // the rate limit), so conduct checks see that a retry reused its key.
    if (turn.action?.kind === "write") notes.idempotencyKey = new IdempotencyLedger(this.sql).keyOf(turn.action.write, req.headers, req.body);
    if (turn.inner?.kind === "write" && turn.call?.ok)
      notes.idempotencyKey = new IdempotencyLedger(this.sql).keyOf(turn.inner.write, req.headers, operationBody(turn.inner.write, turn.call.call.params));

    // Stage: refuse what cannot be read.
    if (req.bodyTooLarge) {
      turn.auth = "missing";
      const limit = bodyLimit(match.found && (match.action.kind === "write" || match.action.kind === "upload") ? match.action.write : null);
      return vendorError(this.vendor, 413, "payload_too_large", `${limit.what} are limited to ${limit.bytes} bytes`);
    }

    // Stage: the farm's own limit, a participant's requests per world (not a vendor behaviour; logged all the same).
    const quota = this.config.requestQuota;
    if (quota != null && req.seq > quota) {
      const left = this.config.expiresAtMs === undefined ? 3600 : Math.max(1, Math.ceil((this.config.expiresAtMs - req.nowMs) / 1000));
      turn.retryAfter = left;
      return vendorError(this.vendor, 429, "world_request_quota_exhausted", `this world has used its ${quota} requests; create a new world`, {}, { "retry-after": String(left) });
    }

    // Stage: faults before routing (one-shot effects, outages, forced windows, delays).
    this.faults.observe(req.path, turn.requestsInEpoch, req.seq);
    this.faults.fireOneShots({
      revokeTokens: () => this.tokens.revokeAll(),
      driftToHead: (resource, inserts) => this.records.driftToHead(resource, inserts),
      lapse: (resource, field, from, to, count) => this.lapseRecords(resource, field, from, to, count, turn.requestsInEpoch),
    });
    const before = this.faults.beforeRoute(req.nowMs);
    if (before) notes.faults.push(before.fault);
    if (before && "refusal" in before) {
      turn.rateLimited = before.refusal.rateLimited ?? false;
      turn.retryAfter = before.refusal.retryAfter ?? null;
      return before.refusal.reply;
    }
    if (before) await this.clock.sleep(before.delayMs);
    // Token lifetimes and mints read the token clock, which a fault may run ahead of real time.
    const aged = this.faults.tokenClock();
    const tokenReq = aged.ms ? { ...req, nowMs: req.nowMs + aged.ms } : req;

    // Stage: route (matched above). Unmatched paths are still authenticated, for the log's auth outcome.
    if (!match.found) {
      turn.auth = (await verifyRequest(tokenReq, this.vendor, this.config.credentials, this.tokens)).outcome;
      if (match.allowed.length) return vendorError(this.vendor, 405, "method_not_allowed", `${req.method} is not allowed here`, {}, { allow: [...new Set(match.allowed)].join(", ") });
      return vendorError(this.vendor, 404, "not_found", `no route for ${req.method} ${req.path}`);
    }
    const action = match.action;

    // Stage: token endpoints.
    if (action.kind === "mint") {
      const result = handleMint(tokenReq, action.mint, this.config.credentials, this.tokens);
      for (const m of result.minted) this.logs.appendToken({ epoch: this.config.epoch, ts: req.nowMs / 1000, ...m });
      turn.auth = result.auth;
      if (aged.fault && result.auth === "expired") notes.faults.push(aged.fault);
      return result.reply;
    }

    // Stage: service descriptions are public.
    if (action.kind === "describe") return describeGateway(this.vendor, action.gateway, req, baseUrl);

    // Stage: auth.
    const retiredBy = this.vendor.auth.legacy ? this.faults.legacyRetiredBy() : null;
    const auth = await verifyRequest(tokenReq, this.vendor, this.config.credentials, this.tokens, retiredBy !== null);
    if (aged.fault && auth.outcome === "expired") notes.faults.push(aged.fault);
    if (auth.outcome !== "ok") {
      if (retiredBy && auth.code === "legacy_auth_retired") {
        notes.faults.push(retiredBy);
        turn.auth = "invalid";
        return vendorError(this.vendor, 401, auth.code, auth.reason);
      }
      const own = this.faults.onAuthRefused({ presentsRevoked: () => this.tokens.presentsRevoked(req.headers, this.vendor.auth.present) });
      if (own) {
        notes.faults.push(own.fault);
        turn.auth = "invalid";
        return own.reply;
      }
      turn.auth = auth.outcome;
      return vendorError(this.vendor, 401, auth.code, auth.reason);
    }

    // Stage: rate limit.
    const rate = this.config.rateLimits ? rateLimit(this.vendor, this.sql, "client", req.nowMs) : { refusal: null, retryAfter: null, headers: {} };
    turn.extraHeaders = rate.headers;
    if (rate.refusal) {
      turn.rateLimited = true;
      turn.retryAfter = rate.retryAfter;
      return rate.refusal;
    }

    // Stage: the route's action (faults shape list pages, reads and writes through their hooks).
    const ctx: HandlerContext = {
      vendor: this.vendor,
      config: this.config,
      baseUrl,
      req,
      params: match.params,
      records: this.records,
      sql: this.sql,
      requestsInEpoch: turn.requestsInEpoch,
      notes,
      faults: this.faults,
      changed: this.hooks.changed,
    };
    // Accepted writes whose wait is over land before this request is served.
    landDueWrites(ctx, applyChange);
    if (action.kind === "gateway") {
      if (!turn.call?.ok) return refuseCall(this.vendor, turn.call as Extract<ParsedCall, { ok: false }>);
      const inner = turn.inner as OperationAction;
      return this.act(operationContext(ctx, inner, turn.call.call), inner);
    }
    const reply = this.act(ctx, action);

    // Stage: read warnings (ignored parameters, fields left out).
    const warnings = action.kind === "list" || action.kind === "get" ? readWarnings(this.vendor, action.resource, req.query, action.kind === "list") : [];
    if (warnings.length) turn.extraHeaders = { ...turn.extraHeaders, warning: warnings.join(", ") };
    return reply;
  }

  /** A fault's lapse: the oldest records holding `from` in `field` move to `to` by themselves, stamped now. */
  private lapseRecords(entity: string, field: string, from: string, to: string, count: number, requestsInEpoch: number): void {
    const resource = this.vendor.resources.find((r) => r.name === entity);
    if (!resource) return;
    const now = vendorNow(this.vendor.clock, this.config.checkpoint, requestsInEpoch);
    for (const row of this.records.oldestWhere(entity, field, from, count)) {
      const data = { ...row.data, [field]: to };
      for (const f of resource.fields) if (f.gen.gen === "updatedAt") data[f.name] = now;
      this.records.update({ ...row, data, updatedMs: now, version: row.version + 1, visibleAt: 0, listedData: null });
    }
  }

  private act(ctx: HandlerContext, action: Exclude<RouteAction, { kind: "mint" | "gateway" | "describe" }>): Reply {
    switch (action.kind) {
      case "list":
        return listRecords(ctx, action.resource, action.truncateAt, action.skip);
      case "get":
        return getRecord(ctx, action.resource);
      case "feed":
        return action.serve(ctx);
      case "write":
        return handleWrite(ctx, action.write);
      case "upload":
        return receiveUpload(ctx, action.write);
      case "subscribe":
        return this.subscribe(ctx);
      case "dead-letters":
        return json(200, { data: this.hooks.drainDeadLetters() });
      case "test-delivery":
        return serveTestDelivery(ctx, this.hooks.deliverTest);
    }
  }

  /**
   * `POST <subscriptionPath> {url}`: answered as the vendor would, and
   * recorded (the request's log row holds the URL), but never fetched:
   * deliveries go only to the receiver the harness or the operator registered
   * through the control plane, so a URL chosen by a client (inside a sandbox
   * with no network, say) neither receives the farm's deliveries nor displaces
   * that receiver.
   */
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
    return json(201, { url, events: this.vendor.webhooks!.entities.flatMap((e) => [`${e}.created`, `${e}.updated`, `${e}.deleted`]) });
  }

  /**
   * The response's headers, lower-cased as `Headers` would keep them, as a
   * plain record (a runtime `Headers` object costs a crossing per call).
   */
  private responseHeaders(turn: Turn, reply: Reply): Record<string, string> {
    const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
    for (const extra of [turn.extraHeaders, reply.headers]) for (const name in extra) headers[name.toLowerCase()] = extra[name];
    return this.stamp(headers, turn.req.nowMs, turn.requestsInEpoch);
  }

  /** Adds the headers every answer sets afresh, last: the wire date and the vendor's server time. */
  private stamp(headers: Record<string, string>, nowMs: number, requestsInEpoch: number): Record<string, string> {
    const clock = this.vendor.clock;
    headers.date = httpDate(nowMs + clock.wireOffsetS * 1000);
    if (clock.serverTimeHeader) headers[clock.serverTimeHeader.toLowerCase()] = String(formatTime(vendorNow(clock, this.config.checkpoint, requestsInEpoch), clock.format, "", clock.zone));
    return headers;
  }

  /** Queues the request's log row and returns its text; null when it could not be logged at all. */
  private log(turn: Turn, reply: Reply): string | null {
    const { req, notes } = turn;
    const secrets = this.secretValues();
    return this.logs.appendRequest(
      {
        seq: req.seq,
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
        authOutcome: turn.auth,
        rateLimited: turn.rateLimited,
        retryAfter: turn.retryAfter,
        idempotencyKey: notes.idempotencyKey,
        faults: notes.faults,
        lies: notes.lies,
      },
      secrets,
    );
  }

  private secretValues(): string[] {
    const secrets = this.vendor.auth.credentials.filter((c) => c.secret).map((c) => this.config.credentials[c.name]);
    return [...secrets, ...this.tokens.liveValues()];
  }
}
