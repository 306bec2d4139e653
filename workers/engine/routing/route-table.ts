import type { Mint } from "../../../declarations/schema/auth.ts";
import type { Resource, Vendor } from "../../../declarations/schema/vendor.ts";
import type { Write } from "../../../declarations/schema/writes.ts";
import type { Gateway } from "../../../declarations/schema/gateways.ts";
import { gatewayStyle } from "../../../mechanics/gateways/index.ts";
import type { Reply } from "../../../mechanics/kit/reply.ts";
import type { HandlerContext } from "../handler-context.ts";
import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import { listTombstones } from "../protocol/tombstones.ts";
import { uploadRoute } from "../../../mechanics/uploads/index.ts";
import { exportRoutes } from "../protocol/exports.ts";
import { decodePathSegment } from "../../../mechanics/kit/path-segment.ts";

/** What a matched route does. */
export type RouteAction =
  | { kind: "mint"; mint: Mint }
  /** A resource's list; `truncateAt` when it is the legacy version that stops silently, `skip` when next pages skip records. */
  | { kind: "list"; resource: Resource; truncateAt?: number; skip?: number }
  | { kind: "get"; resource: Resource }
  /** A route a mechanic's handler serves (a delete style's tombstone list, an export flow's steps). */
  | { kind: "feed"; serve: (ctx: HandlerContext) => Reply }
  | { kind: "write"; write: Write }
  /** The URL an upload's bytes are sent to, after its create call. */
  | { kind: "upload"; write: Write }
  | { kind: "subscribe" }
  /** An RPC gateway: the operation named in the body decides what runs. */
  | { kind: "gateway"; gateway: Gateway }
  /** A gateway's service description (`GET <path>?wsdl`), served without credentials. */
  | { kind: "describe"; gateway: Gateway }
  | { kind: "dead-letters" }
  /** The vendor's test-delivery route: one event of a chosen type, delivered as any other. */
  | { kind: "test-delivery" };

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  names: string[];
  action: RouteAction;
}

/** A match's `params` are decoded path parameters: handlers never decode them again. */
export type RouteMatch = { found: true; action: RouteAction; params: Record<string, string> } | { found: false; allowed: string[] };

function compile(method: string, path: string, action: RouteAction): CompiledRoute {
  const names: string[] = [];
  const source = path
    .split("/")
    .map((seg) => {
      if (seg.startsWith(":")) {
        names.push(seg.slice(1));
        return "([^/]+)";
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { method, pattern: new RegExp(`^${source}/?$`), names, action };
}

/** Every route a declaration defines, matched in declaration order. */
export class RouteTable {
  private readonly routes: CompiledRoute[] = [];

  constructor(vendor: Vendor) {
    for (const mint of vendor.auth.mints) this.routes.push(compile("POST", mint.path, { kind: "mint", mint }));
    for (const r of vendor.resources) {
      if (r.list) this.routes.push(compile("GET", r.list, { kind: "list", resource: r, skip: r.skipsAtPageBoundary }));
      if (r.legacyList) this.routes.push(compile("GET", r.legacyList.path, { kind: "list", resource: r, truncateAt: r.legacyList.truncateAt }));
      if (r.get) this.routes.push(compile("GET", r.get, { kind: "get", resource: r }));
    }
    const feed = deleteStyle(vendor.deletes).feed;
    const feedPath = feed?.path(vendor.deletes);
    if (feedPath) this.routes.push(compile("GET", feedPath, { kind: "feed", serve: listTombstones }));
    for (const x of exportRoutes(vendor)) this.routes.push(compile(x.method, x.path, { kind: "feed", serve: x.serve }));
    for (const w of vendor.writes) if (w.path) this.routes.push(compile(w.method, w.path, { kind: "write", write: w }));
    for (const w of vendor.writes) {
      const upload = w.upload ? uploadRoute(w.upload) : null;
      if (upload) this.routes.push(compile(upload.method, upload.path, { kind: "upload", write: w }));
    }
    for (const g of vendor.gateways) {
      this.routes.push(compile("POST", g.path, { kind: "gateway", gateway: g }));
      if (gatewayStyle(g).description) this.routes.push(compile("GET", g.path, { kind: "describe", gateway: g }));
    }
    if (vendor.webhooks?.subscriptionPath) this.routes.push(compile("POST", vendor.webhooks.subscriptionPath, { kind: "subscribe" }));
    if (vendor.webhooks?.testDelivery) this.routes.push(compile("POST", vendor.webhooks.testDelivery.path, { kind: "test-delivery" }));
    if (vendor.webhooks?.ack) this.routes.push(compile("GET", vendor.webhooks.ack.deadLetterPath, { kind: "dead-letters" }));
  }

  match(method: string, path: string): RouteMatch {
    const allowed: string[] = [];
    for (const r of this.routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      if (r.method !== method && !(method === "HEAD" && r.method === "GET")) {
        allowed.push(r.method);
        continue;
      }
      // Parameters are decoded here, once; a malformed escape names nothing this route serves.
      const params: Record<string, string> = {};
      const decoded = r.names.every((n, i) => {
        const value = decodePathSegment(m[i + 1]);
        if (value !== null) params[n] = value;
        return value !== null;
      });
      if (decoded) return { found: true, action: r.action, params };
    }
    return { found: false, allowed };
  }
}
