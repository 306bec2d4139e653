import type { Paging } from "../../../declarations/schema/pagination.ts";
import type { HandlerContext } from "../handler-context.ts";
import { SplicedJson } from "../http/spliced-json.ts";
import { json, vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { type CursorScope, nextBodyValue, nextPageParams, type PageRequest, parsePage } from "../../../mechanics/paging/index.ts";
import { QueryParams } from "../../../mechanics/kit/query-params.ts";
import type { PageItems } from "./page-items-cache.ts";

const ITEMS_PLACEHOLDER = "\u0000items\u0000";
const PLACEHOLDER_JSON = JSON.stringify(ITEMS_PLACEHOLDER);

/**
 * Builds a paged list reply in the vendor's envelope, with next links as
 * declared. `fetch` returns the items as joined JSON text, spliced into the envelope.
 */
export function pagedReply(
  ctx: HandlerContext,
  paging: Paging,
  listKey: string,
  fetch: (page: PageRequest) => PageItems,
  resource?: string,
  skip = 0,
  /** Envelope fields the list adds (the window a windowed list served). */
  extra?: Record<string, unknown>,
): Reply {
  const { vendor, req } = ctx;
  const cutoff = ctx.faults.cursorCutoff();
  const scope: CursorScope = { seed: ctx.config.seed, epoch: ctx.config.epoch, listKey, requestSeq: req.seq, cutoff: cutoff?.seq ?? 0 };
  const parsed = parsePage(paging, req.query, scope);
  if (!parsed.ok) {
    if (parsed.invalidated && cutoff) ctx.notes.faults.push(cutoff.fault);
    return vendorError(vendor, 400, parsed.invalidated ? "cursor_expired" : "invalid_parameter", parsed.message, { parameter: parsed.param });
  }
  const pageFault = resource ? ctx.faults.onListPage(resource, Math.floor(parsed.page.offset / parsed.page.limit)) : null;
  if (pageFault) {
    ctx.notes.faults.push(pageFault.fault);
    return pageFault.reply;
  }
  const items = fetch(parsed.page);
  const { count, total } = items;
  const next = nextPageParams(paging, parsed.page, count, total, scope, skip);
  const env = vendor.envelope;
  const body: Record<string, unknown> = { [env.items]: ITEMS_PLACEHOLDER };
  if (paging.total) body[env.total] = total;
  if (extra) Object.assign(body, extra);
  const headers: Record<string, string> = {};
  // Only links carry a URL; a body cursor (or no next at all) does not need one built.
  const nextUrl = next && (paging.next === "link-header" || paging.next === "hal") ? withParams(ctx, next) : null;
  if (paging.next === "body") {
    body[env.next] = next ? nextBodyValue(paging, next) : null;
  } else if (paging.next === "link-header" && nextUrl) {
    headers.link = `<${nextUrl}>; rel="next"`;
  } else if (paging.next === "hal") {
    body._links = { self: { href: withParams(ctx, {}) }, ...(nextUrl ? { next: { href: nextUrl } } : {}) };
  }
  // Spliced by position: String.replace would read `$&` and `$'` in a record's text as patterns.
  const envelope = JSON.stringify(body);
  const at = envelope.indexOf(PLACEHOLDER_JSON);
  const head = `${envelope.slice(0, at)}[`;
  const tail = `]${envelope.slice(at + PLACEHOLDER_JSON.length)}`;
  return json(200, new SplicedJson(head, items, tail), headers);
}

function withParams(ctx: HandlerContext, params: Record<string, string>): string {
  const q = new QueryParams(ctx.req.query);
  for (const [k, v] of Object.entries(params)) q.set(k, v);
  const qs = q.toString();
  return `${ctx.baseUrl}${ctx.req.path}${qs ? `?${qs}` : ""}`;
}
