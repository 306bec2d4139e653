/**
 * @module gateway
 * Serves an RPC gateway: a call names an operation, which runs as the list,
 * read, feed or write the declaration maps it to (with the call's parameters
 * as that action's query or body), and the JSON answer is put into the
 * style's XML envelope. Refusals made before the operation ran (credentials,
 * rate limit, size) are put into the same envelope.
 */
import type { Gateway } from "../../../declarations/schema/gateways.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { Write } from "../../../declarations/schema/writes.ts";
import type { GatewayCall, ParsedCall, ReplyMeaning } from "../../../mechanics/gateways/define.ts";
import { gatewayStyle } from "../../../mechanics/gateways/index.ts";
import { vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import type { HandlerContext } from "../handler-context.ts";
import { bodyText } from "../http/raw-json.ts";
import type { VendorRequest } from "../http/vendor-request.ts";
import type { RouteAction } from "../routing/route-table.ts";
import { listTombstones } from "./tombstones.ts";
import { QueryParams } from "../../../mechanics/kit/query-params.ts";

/** Reads the call a request makes (pure: a refusal is answered later, after auth). */
export function parseGatewayCall(g: Gateway, req: VendorRequest): ParsedCall {
  return gatewayStyle(g).parse(g, { headers: req.headers, rawBody: req.rawBody });
}

/** What a gateway operation can run. */
export type OperationAction = Extract<RouteAction, { kind: "list" | "get" | "feed" | "write" }>;

/** The action an operation runs. */
export function operationAction(vendor: Vendor, g: Gateway, operation: string): OperationAction {
  const op = g.operations.find((o) => o.name === operation)!;
  const resource = vendor.resources.find((r) => r.name === op.resource);
  if (op.action === "list") return { kind: "list", resource: resource! };
  if (op.action === "get") return { kind: "get", resource: resource! };
  if (op.action === "feed") return { kind: "feed", serve: listTombstones };
  return { kind: "write", write: vendor.writes.find((w) => w.name === op.write)! };
}

/** Text parameters as the JSON values a write's inputs take; what does not convert stays text, for validation to name. */
export function operationBody(write: Write, params: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const input = write.inputs.find((i) => i.name === name);
    if (!input || value === "") body[name] = value;
    else if (input.type === "integer" && /^-?\d+$/.test(value)) body[name] = Number(value);
    else if (input.type === "number" && value.trim() !== "" && Number.isFinite(Number(value))) body[name] = Number(value);
    else if (input.type === "boolean" && /^(true|false|1|0)$/.test(value)) body[name] = value === "true" || value === "1";
    else body[name] = value;
  }
  return body;
}

/**
 * The context the operation's action runs in: the call's parameters become
 * its query (reads) or body (writes), and the record's id, named by the
 * resource's id field, its path parameter.
 */
export function operationContext(ctx: HandlerContext, action: OperationAction, call: GatewayCall): HandlerContext {
  const entity = action.kind === "write" ? action.write.entity : action.kind === "feed" ? undefined : action.resource.name;
  const resource = ctx.vendor.resources.find((r) => r.name === entity);
  const params = { ...call.params };
  const pathParams: Record<string, string> = {};
  if (resource && params[resource.idField] !== undefined && (action.kind === "get" || (action.kind === "write" && action.write.op === "update"))) {
    pathParams.id = params[resource.idField];
    delete params[resource.idField];
  }
  const parentField = resource?.fields.find((f) => f.gen.gen === "parent")?.name;
  if (parentField && params[parentField] !== undefined && action.kind === "list") {
    pathParams.parentId = params[parentField];
    delete params[parentField];
  }
  const req: VendorRequest =
    action.kind === "write"
      ? { ...ctx.req, query: new QueryParams(), body: operationBody(action.write, params), bodyInvalid: false }
      : { ...ctx.req, query: new QueryParams(Object.entries(params).map(([k, v]) => [k, String(v)])), body: null, bodyInvalid: false };
  return { ...ctx, req, params: pathParams };
}

/** The refusal of a call that could not be read, in the vendor's JSON error shape (rendered like any answer). */
export function refuseCall(vendor: Vendor, parsed: Extract<ParsedCall, { ok: false }>): Reply {
  return vendorError(vendor, parsed.refusal.status, parsed.refusal.code, parsed.refusal.message);
}

/** What a JSON answer means: success with its body, or a failure with code, message and the rest. */
function meaningOf(vendor: Vendor, reply: Reply): ReplyMeaning {
  const parsed = reply.body === null ? {} : (JSON.parse(bodyText(reply.body)) as unknown);
  const body = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
  const e = vendor.errors;
  const rpcFailed = body[e.rpcOkField] === false;
  if (reply.status < 400 && !rpcFailed) {
    const { [e.rpcOkField]: _ok, ...rest } = body;
    return { ok: true, status: reply.status, body: rest };
  }
  const inner = (e.wrap && !rpcFailed && body[e.wrap] && typeof body[e.wrap] === "object" ? body[e.wrap] : body) as Record<string, unknown>;
  const { [e.codeField]: code, [e.messageField]: message, [e.rpcOkField]: _ok, ...detail } = inner;
  return { ok: false, status: rpcFailed ? 422 : reply.status, code: String(code ?? "error"), message: String(message ?? "the call failed"), detail };
}

/**
 * Puts an answer to a gateway request into the style's envelope; `operation`
 * and `action` are null when the call could not be read.
 */
export function renderGatewayReply(vendor: Vendor, g: Gateway, operation: string | null, action: OperationAction | null, reply: Reply): Reply {
  const itemName = action && (action.kind === "list" || action.kind === "get") ? action.resource.name : action?.kind === "feed" ? "deletion" : "item";
  const itemTag = (key: string) => (key === vendor.envelope.items ? itemName : key.endsWith("s") ? key.slice(0, -1) : "item");
  const { "content-type": _type, ...headers } = reply.headers;
  let meaning = meaningOf(vendor, reply);
  // A single record is answered inside an element named for its entity (an RPC write's answer holds it as `record`).
  if (meaning.ok && action?.kind === "get") meaning = { ...meaning, body: { [action.resource.name]: meaning.body } };
  if (meaning.ok && action?.kind === "write") {
    const record = action.write.errors === "rpc-200" ? meaning.body.record : meaning.body;
    meaning = { ...meaning, body: { [action.write.entity]: record ?? meaning.body } };
  }
  return gatewayStyle(g).render(g, operation, meaning, itemTag, headers);
}
