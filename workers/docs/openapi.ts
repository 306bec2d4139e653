import { authScheme, tokenMint } from "../../mechanics/auth/index.ts";
import type { Gateway } from "../../declarations/schema/gateways.ts";
import { gatewayStyle } from "../../mechanics/gateways/index.ts";
import type { Write } from "../../declarations/schema/writes.ts";
import { deleteFlagField, deletedReadStatus, deleteStyle } from "../../mechanics/deletes/index.ts";
import { timeFormat } from "../../mechanics/time-formats/index.ts";
import { pagingDocParams, pagingStyle } from "../../mechanics/paging/index.ts";
import { windowStyle } from "../../mechanics/windows/index.ts";
import { type DocModel, type DocResource, listParams } from "./model.ts";
import { authDocsContext, exampleRecord } from "./markdown/helpers.ts";
import { exampleWindow, knownIssue } from "./markdown/resource-page.ts";
import { embedProperties, uploadOperations, writeOptionDocs } from "./openapi-write-options.ts";
import { EXPORT_JOB_SCHEMA, exportJobSchema, exportOperations } from "./openapi-exports.ts";

type Json = Record<string, unknown>;

function fieldSchema(m: DocModel, f: DocResource["fields"][number], r: DocResource): Json {
  let s: Json;
  if (f.type === "timestamp") s = { ...timeFormat(m.timeFormat).docs.schema };
  else if (f.type === "id") {
    const target = f.name === r.idField ? r : m.resources.find((x) => x.name === f.refersTo);
    s = target?.idFormat.format === "int" ? { type: "integer" } : { type: "string" };
  } else s = { type: f.type };
  return { ...s, ...(f.nullable ? { type: [s.type as string, "null"] } : {}), description: f.description + (f.onlyWith ? ` Only returned with \`${f.onlyWith.param}=${f.onlyWith.value}\`.` : "") };
}

function resourceSchema(m: DocModel, r: DocResource): Json {
  const properties: Json = {};
  for (const f of r.fields) properties[f.name] = fieldSchema(m, f, r);
  const flag = deleteFlagField(m.deletes);
  if (flag) properties[flag] = { type: "boolean", description: "Whether the record was deleted." };
  Object.assign(properties, embedProperties(m, r));
  const required = r.fields.filter((f) => !f.onlyWith).map((f) => f.name);
  return { type: "object", description: r.description, properties, required };
}

function securitySchemes(m: DocModel): Json {
  const schemes: Json = {};
  for (const p of m.present) schemes[authScheme(p).docs.securityName(p)] = authScheme(p).docs.securityScheme(p);
  for (const mint of m.mints) {
    const s = tokenMint(mint).docs.securityScheme?.(mint, authDocsContext(m));
    if (s) schemes[s.name] = s.scheme;
  }
  return schemes;
}

function oauthError(description: string): Json {
  return { description, content: { "application/json": { schema: { $ref: "#/components/schemas/OAuthError" } } } };
}

function errorResponse(description: string): Json {
  return { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
}

function commonErrors(m: DocModel): Json {
  return { "400": errorResponse("Malformed parameter or body"), "401": errorResponse("Missing, invalid or expired credentials"), ...(m.rateLimit ? { "429": rateLimited(m) } : {}) };
}

function rateLimited(m: DocModel): Json {
  const headers =
    m.rateLimit!.retryAfter === "body"
      ? {}
      : {
          "Retry-After": {
            description: m.rateLimit!.retryAfter === "seconds" ? "Seconds to wait" : "HTTP date after which to retry",
            schema: { type: m.rateLimit!.retryAfter === "seconds" ? "integer" : "string" },
          },
        };
  return { ...errorResponse(m.rateLimit!.retryAfter === "body" ? "Rate limited; the body's retry_after_seconds says how long to wait" : "Rate limited"), headers };
}

function listOperation(m: DocModel, r: DocResource): Json {
  const list = r.list!;
  const parameters: Json[] = listParams(list).map((p) => ({
    name: p.name,
    in: "query",
    required: p.required ?? p.role === "sort",
    description: p.description,
    schema: p.schema ?? (p.role === "flag" ? { type: "string", enum: [p.value ?? "true"] } : { type: "string" }),
  }));
  const window = list.window ? windowDocs(m, list.window) : null;
  if (r.parent) parameters.unshift({ name: "parentId", in: "path", required: true, description: `Id of the ${r.parent}.`, schema: { type: "string" }, "x-wirebench-ref": r.parent });
  const properties: Json = { [m.envelope.items]: { type: "array", items: { $ref: `#/components/schemas/${r.name}` } } };
  const required = [m.envelope.items];
  if (list.paging.total) {
    properties[m.envelope.total] = { type: "integer" };
    required.push(m.envelope.total);
  }
  if (list.paging.next === "body") properties[m.envelope.next] = { type: [pagingStyle(list.paging).docs.nextType, "null"] };
  if (list.paging.next === "hal") properties._links = { type: "object" };
  if (window) {
    properties[window.reportField] = window.reportSchema;
    required.push(window.reportField);
  }
  const windowed = list.window && r.examples.length ? exampleWindow(m, r, list.window.declared) : null;
  const example: Json = { [m.envelope.items]: (windowed ? windowed.examples : r.examples).map((ex) => exampleRecord(m, r, ex)) };
  if (list.paging.total) example[m.envelope.total] = windowed ? windowed.examples.length : r.count;
  if (windowed) Object.assign(example, windowed.report);
  const headers: Json = list.paging.next === "link-header" ? { Link: { description: 'RFC 8288 link to the next page (rel="next")', schema: { type: "string" } } } : {};
  return {
    operationId: `list_${r.plural}`,
    summary: `List ${r.plural.replace(/_/g, " ")}`,
    ...(list.skipsAtPageBoundary || window ? { description: [list.skipsAtPageBoundary ? knownIssue(r, list.skipsAtPageBoundary) : "", window?.description ?? ""].filter(Boolean).join(" ") } : {}),
    ...(list.skipsAtPageBoundary ? { "x-wirebench-known-issue": { skipsAtPageBoundary: list.skipsAtPageBoundary } } : {}),
    ...(window ? { "x-wirebench-window": window.extension } : {}),
    tags: [r.plural],
    parameters,
    responses: {
      "200": {
        description: `A page of ${r.plural.replace(/_/g, " ")}`,
        headers,
        content: { "application/json": { schema: { type: "object", properties, required }, ...(r.examples.length ? { example } : {}) } },
      },
      ...commonErrors(m),
      ...(r.parent ? { "404": errorResponse(`No such ${r.parent}`) } : {}),
    },
  };
}

/**
 * What the OpenAPI document says of a windowed list: the prose, the envelope
 * field reporting the window served, and `x-wirebench-window` (the parameters,
 * the field they bound, the longest window, the report field, the first
 * instant the list holds) for a documents-only client.
 */
function windowDocs(m: DocModel, w: NonNullable<NonNullable<DocResource["list"]>["window"]>) {
  const style = windowStyle(w.declared);
  const decl = w.declared as never;
  const reportField = style.reportField(decl);
  const { from, to } = style.params(decl);
  const instant = { ...timeFormat(m.timeFormat).docs.schema };
  return {
    reportField,
    reportSchema: { type: "object", description: "The window served.", properties: { from: instant, to: instant }, required: ["from", "to"] },
    description: style.docs.describe(decl, w.historyStart).join(" "),
    extension: { from, to, field: style.field(decl), maxSpanDays: style.maxSpanDays(decl), report: reportField, historyStart: `${w.historyStart}T00:00:00Z` },
  };
}

function getOperation(m: DocModel, r: DocResource): Json {
  return {
    operationId: `get_${r.name}`,
    summary: `Get one ${r.name.replace(/_/g, " ")}`,
    tags: [r.plural],
    parameters: [
      { name: "id", in: "path", required: true, schema: { type: "string" }, "x-wirebench-ref": r.name },
      { name: "If-None-Match", in: "header", required: false, description: "ETag of the copy you hold: `304` when it is still current.", schema: { type: "string" } },
    ],
    responses: {
      "200": {
        description: `The ${r.name}`,
        headers: { ETag: { schema: { type: "string" } } },
        content: { "application/json": { schema: { $ref: `#/components/schemas/${r.name}` }, ...(r.examples.length ? { example: exampleRecord(m, r, r.examples[0]) } : {}) } },
      },
      ...commonErrors(m),
      "304": { description: "Not modified: the ETag sent in If-None-Match is current", headers: { ETag: { schema: { type: "string" } } } },
      "404": errorResponse("No such record"),
      ...(deletedReadStatus(m.deletes) === 410 ? { "410": errorResponse("The record was deleted") } : {}),
    },
  };
}

function writeOperation(m: DocModel, w: Write, path: string): Json {
  const inputProps: Json = {};
  for (const i of w.inputs)
    inputProps[i.name] = {
      type: i.type,
      description: i.description,
      ...(i.oneOf ? { enum: i.oneOf } : {}),
      ...(i.maxLength ? { maxLength: i.maxLength } : {}),
      ...(i.ref ? { "x-wirebench-ref": i.ref } : {}),
    };
  const item = { type: "object", properties: inputProps, required: w.inputs.filter((i) => i.required && !(i.name === w.parentFrom && w.parentFrom?.startsWith(":"))).map((i) => i.name) };
  let body: Json = w.op === "bulk-create" ? { type: "object", properties: { [w.itemsField]: { type: "array", items: item, maxItems: w.maxItems } }, required: [w.itemsField] } : item;
  if (w.idempotency?.in === "body") body = { ...body, properties: { ...(body.properties as Json), [w.idempotency.field]: { type: "string", description: "Idempotency key" } } };
  const parameters: Json[] = [];
  const entity = m.resources.find((r) => r.name === w.entity)!;
  if (path.includes(":id")) parameters.push({ name: "id", in: "path", required: true, schema: { type: "string" }, "x-wirebench-ref": w.entity });
  if (path.includes(":parentId")) parameters.push({ name: "parentId", in: "path", required: true, schema: { type: "string" }, "x-wirebench-ref": entity.parent });
  if (w.idempotency?.in === "header")
    parameters.push({ name: w.idempotency.name, in: "header", required: false, description: `Repeats within ${w.idempotency.windowS} s return the first response`, schema: { type: "string" } });
  if (w.ifMatch) parameters.push({ name: "If-Match", in: "header", required: true, description: "ETag of the record as last read", schema: { type: "string" } });
  const ok = w.accepted ? "202" : w.op === "bulk-create" ? "207" : String(w.op === "update" ? 200 : w.successStatus);
  const responses: Json = {
    [ok]: {
      description: w.op === "bulk-create" ? "One result per item" : "The record as stored",
      content: {
        "application/json": {
          schema:
            w.op === "bulk-create"
              ? { type: "object", properties: { results: { type: "array", items: { type: "object" } } } }
              : w.errors === "rpc-200"
                ? { type: "object" }
                : { $ref: `#/components/schemas/${w.entity}` },
        },
      },
    },
    ...commonErrors(m),
  };
  if (w.errors === "http-422") responses["422"] = errorResponse("Validation failed; field errors listed");
  if (path.includes(":")) responses["404"] = errorResponse("No such record");
  if (w.ifMatch) Object.assign(responses, { "412": errorResponse("The record changed since it was read"), "428": errorResponse("If-Match is required") });
  if (w.errors === "rpc-200" && ok !== "200")
    responses["200"] = { description: `The call failed (\`${m.errors.rpcOkField}: false\`)`, content: { "application/json": { schema: { type: "object" } } } };
  const options = writeOptionDocs(w, ok, body, errorResponse);
  Object.assign(responses, options.responses);
  return {
    operationId: w.name,
    summary: w.description.split(". ")[0],
    ...(options.description ? { description: options.description } : {}),
    tags: [m.resources.find((r) => r.name === w.entity)!.plural],
    parameters,
    requestBody: { required: true, content: options.content },
    responses,
  };
}

/** A gateway endpoint: one POST taking every operation as an XML document. */
function gatewayOperation(m: DocModel, g: Gateway): Json {
  const style = gatewayStyle(g);
  const media = style.docs.callHeaders(g, g.operations[0].name)["Content-Type"].split(";")[0];
  const xml = { schema: { type: "string", description: "An XML document" } };
  return {
    operationId: `gateway_${g.service}`,
    "x-wirebench-gateway": g.style,
    summary: `${g.service} (${g.operations.length} operations)`,
    description: `${style.docs.overview(g, m.baseUrl).join("\n")}\n\nOperations: ${g.operations.map((o) => `\`${o.name}\``).join(", ")}.`,
    tags: ["gateway"],
    requestBody: { required: true, content: { [media]: xml } },
    responses: {
      "200": { description: "The operation's answer", content: { [media]: xml } },
      ...(style.description ? { "500": { description: "A SOAP Fault", content: { [media]: xml } }, "401": { description: "Missing, invalid or expired credentials", content: { [media]: xml } } } : {}),
      ...(m.rateLimit ? { "429": { description: "Rate limited", content: { [media]: xml } } } : {}),
    },
  };
}

function toTemplate(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, "{$1}");
}

/** OpenAPI 3.1 document of the surface a model describes. */
export function renderOpenApi(m: DocModel): Json {
  const paths: Record<string, Json> = {};
  const at = (path: string) => (paths[toTemplate(path)] ??= {});
  const security = [Object.fromEntries(m.present.map((p) => [authScheme(p).docs.securityName(p), []]))];
  for (const r of m.resources) {
    if (r.list && !r.list.operation) at(r.list.path).get = { ...listOperation(m, r), security };
    if (r.list && r.legacyList) {
      // The older version pages the same way but has none of the current one's known issues.
      const { "x-wirebench-known-issue": _issue, ...current } = listOperation(m, r);
      at(r.legacyList.path).get = {
        ...current,
        operationId: `${current.operationId}_legacy`,
        summary: `${current.summary} (deprecated version)`,
        description:
          r.legacyList.truncateAt === undefined
            ? `Deprecated in favour of \`GET ${r.list.path}\`, and still served: it returns the same records.`
            : `Deprecated: returns at most ${r.legacyList.truncateAt} records in all, with no sign of more. Use \`GET ${r.list.path}\`.`,
        deprecated: true,
        security,
      };
    }
    if (r.get && !r.get.operation) at(r.get.path).get = { ...getOperation(m, r), security };
  }
  for (const w of m.writes) if (w.path) at(w.path)[w.method.toLowerCase()] = { ...writeOperation(m, w, w.path), security };
  for (const [path, method, op] of uploadOperations(m, { commonErrors: commonErrors(m), errorResponse })) at(path)[method] = { ...op, security };
  for (const g of m.gateways) at(g.path).post = { ...gatewayOperation(m, g), security };
  const feed = deleteStyle(m.deletes).feed;
  const feedPath = feed?.path(m.deletes);
  if (feed && feedPath) {
    const p = m.paging;
    const sinceParam = feed.incremental(m.deletes) ? m.resources.flatMap((r) => r.list?.params ?? []).find((x) => x.role === "since") : undefined;
    const ts = { ...timeFormat(m.timeFormat).docs.schema };
    at(feedPath).get = {
      operationId: "list_tombstones",
      summary: "List deleted records",
      tags: ["deletes"],
      security,
      parameters: [
        ...pagingDocParams(p).map((param) => ({ name: param.name, in: "query", required: false, schema: param.schema })),
        ...(sinceParam ? [{ name: sinceParam.name, in: "query", required: false, description: "Only deletions after this time.", schema: { type: "string" } }] : []),
      ],
      responses: {
        "200": {
          description: "Deleted records",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  [m.envelope.items]: {
                    type: "array",
                    items: { type: "object", ...feed.entrySchema(m.deletes, ts) },
                  },
                  ...(p.total ? { [m.envelope.total]: { type: "integer" } } : {}),
                },
                required: [m.envelope.items],
              },
            },
          },
        },
        ...commonErrors(m),
      },
    };
  }
  if (m.exports) for (const [path, method, op] of exportOperations(m.exports, { commonErrors: commonErrors(m), errorResponse })) (paths[path] ??= {})[method] = { ...op, security };
  for (const mint of m.mints) {
    const op = tokenMint(mint).docs.operation(mint);
    at(mint.path).post = {
      operationId: `mint_${mint.issues}`,
      "x-wirebench-mint": op.mint,
      summary: op.summary,
      tags: ["auth"],
      security: op.security,
      requestBody: { required: op.bodyRequired, content: { "application/x-www-form-urlencoded": { schema: { type: "object" } }, "application/json": { schema: { type: "object" } } } },
      responses: { "200": { description: "Issued", content: { "application/json": { schema: { type: "object" } } } }, "400": oauthError("Bad request"), "401": oauthError("Bad credentials") },
    };
  }
  const e = m.errors;
  const inner = { type: "object", properties: { [e.codeField]: { type: "string" }, [e.messageField]: { type: "string" } }, required: [e.codeField, e.messageField] };
  const tagText = (name: string) =>
    name === "auth"
      ? "Tokens and sessions"
      : name === "deletes"
        ? "Deleted records"
        : name === "gateway"
          ? "XML operations"
          : name === "exports"
            ? "Bulk CSV exports"
            : (m.resources.find((r) => r.plural === name)?.description ?? name);
  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op as { tags: string[] }).tags)))].map((name) => ({ name, description: tagText(name) }));
  return {
    openapi: "3.1.0",
    info: {
      title: `${m.vendor.name} API`,
      version: m.changelog.at(-1)!.version,
      description: `${m.vendor.summary}\n\n${m.canary}`,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      "x-wirebench-canary": m.canary,
    },
    servers: [{ url: m.baseUrl }],
    tags,
    paths,
    components: {
      schemas: {
        ...Object.fromEntries(m.resources.map((r) => [r.name, resourceSchema(m, r)])),
        ...(JSON.stringify(paths).includes('"#/components/schemas/Error"') ? { Error: e.wrap ? { type: "object", properties: { [e.wrap]: inner }, required: [e.wrap] } : inner } : {}),
        ...(m.exports ? { [EXPORT_JOB_SCHEMA]: exportJobSchema(m.exports) } : {}),
        ...(m.mints.length
          ? {
              OAuthError: {
                type: "object",
                description: "Token endpoint errors follow RFC 6749.",
                properties: { error: { type: "string" }, error_description: { type: "string" } },
                required: ["error"],
              },
            }
          : {}),
      },
      securitySchemes: securitySchemes(m),
    },
  };
}
