/**
 * A generic contract check of a live vendor against its own OpenAPI document.
 *
 * Everything is driven by the document: operations, parameters, schemas,
 * security schemes and the wirebench extensions (`x-wirebench-credential`,
 * `x-wirebench-token`, `x-wirebench-mint`, `x-wirebench-signature`,
 * `x-wirebench-csrf-header`, `x-wirebench-ref`, `x-wirebench-flow`, `x-wirebench-window`). There is no vendor-specific code path. The check
 * returns the violations it finds instead of asserting, so the same contract
 * can be run against truthful documentation (expect none) and against stale
 * documentation (expect some).
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { signRequest } from "../../mechanics/kit/hmac.ts";

type Json = Record<string, any>;

/** One way the live vendor disagrees with its documentation. */
export interface Violation {
  /** operationId (or `METHOD path` when it has none). */
  operation: string;
  /** Which check failed: status, schema, header, content-type, paging, flag, auth, setup. */
  check: string;
  message: string;
}

/** One HTTP request the contract sent, as the vendor's request log should show it. */
export interface ContractCall {
  method: string;
  /** Path relative to the vendor root, without the query string. */
  path: string;
  query: Record<string, string>;
  status: number;
}

export interface ContractTarget {
  /** Vendor root, e.g. http://127.0.0.1:8787/w/w_.../ats. */
  baseUrl: string;
  /** The world's credentials, by credential name. */
  credentials: Record<string, string>;
  /** The OpenAPI 3.1 document the vendor serves. */
  doc: Json;
}

export interface ContractResult {
  violations: Violation[];
  calls: ContractCall[];
  /** operationIds checked, in the order they were checked. */
  operations: string[];
  /** Checks that could not be exercised against this world (not violations). */
  skipped: string[];
}

interface Operation {
  id: string;
  method: string;
  path: string;
  op: Json;
}

interface Response {
  status: number;
  headers: Headers;
  text: string;
  /** The body byte for byte (decoding it as text drops a byte order mark). */
  bytes: Uint8Array;
  body: unknown;
  contentType: string;
}

/** An answer as a flow contract built on this one reads it. */
export type ContractResponse = Response;
/** A request as a flow contract built on this one describes it. */
export type ContractRequest = RequestSpec;

interface RequestSpec {
  pathParams?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** JSON body (serialised) or form body (URLSearchParams). */
  body?: unknown;
  /** A body sent as it is (an XML document), with its media type. */
  text?: { body: string; contentType: string };
  /** Send the operation's documented credentials (default true). */
  auth?: boolean;
}

/** Pages one list may take before the crawl calls it endless (a list that repeats its first page never ends). */
const MAX_PAGES = 500;

/** Plausible ranges of numeric timestamps: the years 2000 to 2100. */
const SECONDS_2000 = 946_684_800;
const SECONDS_2100 = 4_102_444_800;

const STRING_VALUE = "contract test";
/** Methods a CSRF token is never needed on. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const PAGE_SIZE = 2;
const PARENTS_TO_TRY = 5;
const DAY_MS = 86_400_000;
/** Windows a windowed list may take before the crawl calls it endless. */
const MAX_WINDOWS = 2000;

/** A windowed list as `x-wirebench-window` documents it. */
interface WindowDoc {
  from: string;
  to: string;
  maxSpanDays: number;
  report: string;
  historyStart: string;
}

/** JSON pointer escaping of one reference token. */
function pointerToken(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Every format string a document uses. */
function formatsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) formatsIn(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "format" && typeof v === "string") out.add(v);
      else formatsIn(v, out);
    }
  }
  return out;
}

/** Ajv (draft 2020-12) that resolves `#/components/...` of the document. */
class SchemaValidator {
  private readonly ajv: InstanceType<typeof Ajv2020>;
  private readonly cache = new Map<string, ReturnType<InstanceType<typeof Ajv2020>["compile"]>>();
  private readonly docId = "urn:wirebench:openapi";

  constructor(doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(this.ajv);
    // Timestamps documented as Unix seconds or milliseconds must fall in a plausible range,
    // so a document that names the wrong unit is caught.
    this.ajv.addFormat("unix-s", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= SECONDS_2000 && n <= SECONDS_2100 });
    this.ajv.addFormat("unix-ms", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= SECONDS_2000 * 1000 && n <= SECONDS_2100 * 1000 });
    // Any other format ajv does not know is accepted as is.
    for (const f of formatsIn(doc)) if (!(f in this.ajv.formats)) this.ajv.addFormat(f, true);
    this.ajv.addSchema(doc, this.docId);
  }

  /** Errors of `value` against the schema at a JSON pointer into the document ([] when valid). */
  validate(pointer: string, value: unknown): string[] {
    let fn = this.cache.get(pointer);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${this.docId}#${pointer}` });
      this.cache.set(pointer, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "(body)"} ${e.message}${e.params && "allowedValues" in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ""}`);
  }
}

/** Runs the contract of one vendor world against a document. */
export async function runContract(target: ContractTarget): Promise<ContractResult> {
  return new Contract(target).run();
}

/** What a generic client read by following only the documents: the ids each entity's lists served, and what stopped it. */
export interface CrawlResult {
  /** Entity (component schema) -> ids served, in order, with duplicates kept. */
  records: Record<string, string[]>;
  problems: string[];
  requests: number;
}

/**
 * A generic client driven only by the document: authenticates as its security
 * schemes and mints say, then reads every list to its end the way the paging
 * parameters and next links say (subresource lists under every parent).
 */
export async function crawlFromDocs(target: ContractTarget): Promise<CrawlResult> {
  return new Contract(target).crawl();
}

/** Authenticates from the document and reads the first page of its first top-level list; the page's status. */
export async function firstPageFromDocs(target: ContractTarget): Promise<number> {
  return new Contract(target).firstPage();
}

/** A client that speaks a vendor's documented operations with the credentials its document says, for flow contracts built on this one. */
export interface DocumentedClient {
  /** Sends one documented operation, by operationId. */
  send(operationId: string, spec?: ContractRequest): Promise<ContractResponse>;
  /**
   * Sends any method to any path (relative to the vendor root, sent as given,
   * percent-escapes and all) with the credentials a documented operation
   * carries: routes the document leaves out, and requests no client should send.
   */
  sendWithAuthOf(operationId: string, method: string, path: string, spec?: ContractRequest): Promise<ContractResponse>;
  /** Every call sent so far, as the vendor's request log should show it. */
  calls: ContractCall[];
}

export function documentedClient(target: ContractTarget): DocumentedClient {
  const c = new Contract(target);
  return { send: (operationId, spec) => c.sendOperation(operationId, spec), sendWithAuthOf: (operationId, method, path, spec) => c.sendWithAuthOf(operationId, method, path, spec), calls: c.callLog };
}

class Contract {
  private readonly doc: Json;
  private readonly baseUrl: string;
  private readonly basePath: string;
  private readonly credentials: Record<string, string>;
  private readonly validator: SchemaValidator;
  private readonly operations: Operation[] = [];
  private readonly violations: Violation[] = [];
  private readonly calls: ContractCall[] = [];
  private readonly skipped: string[] = [];
  private readonly tokens = new Map<string, string>();
  /** CSRF tokens the logins that opened sessions handed out, by session token name. */
  private readonly csrfTokens = new Map<string, string>();
  private readonly refCache = new Map<string, string[]>();
  /** Vendor clock minus local clock, ms (from a `Date` response header). */
  private clockOffsetMs: number | null = null;

  constructor(target: ContractTarget) {
    this.doc = target.doc;
    this.baseUrl = target.baseUrl.replace(/\/$/, "");
    this.basePath = new URL(this.baseUrl).pathname;
    this.credentials = target.credentials;
    this.validator = new SchemaValidator(this.doc);
    for (const [path, item] of Object.entries<Json>(this.doc.paths ?? {})) {
      for (const method of ["get", "put", "post", "patch", "delete"]) {
        const op = item[method];
        if (op)
          this.operations.push({
            id: op.operationId ?? `${method.toUpperCase()} ${path}`,
            method: method.toUpperCase(),
            path,
            op: { ...op, parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])] },
          });
      }
    }
  }

  /** Every call sent so far. */
  get callLog(): ContractCall[] {
    return this.calls;
  }

  /** Sends a documented operation by id. */
  async sendOperation(operationId: string, spec: RequestSpec = {}): Promise<Response> {
    const o = this.operations.find((x) => x.id === operationId);
    if (!o) throw new Error(`the document has no operation "${operationId}"`);
    return this.send(o, spec);
  }

  /** Sends a method and raw path with the credentials of a documented operation. */
  async sendWithAuthOf(operationId: string, method: string, path: string, spec: RequestSpec = {}): Promise<Response> {
    const o = this.operations.find((x) => x.id === operationId);
    if (!o) throw new Error(`the document has no operation "${operationId}"`);
    return this.send({ ...o, method, path }, spec);
  }

  async run(): Promise<ContractResult> {
    // Reads first, so lists and pages see the seeded data before any write changes it.
    // An XML gateway takes documents this contract does not write; the gateway's own contract drives it.
    const json = this.operations.filter((o) => !o.op["x-wirebench-gateway"]);
    const ordered = [...json.filter((o) => o.method === "GET"), ...json.filter((o) => o.method !== "GET")];
    for (const o of ordered) {
      try {
        await this.checkOperation(o);
      } catch (err) {
        this.violate(o, "setup", `could not run: ${(err as Error).message}`);
      }
    }
    return { violations: this.violations, calls: this.calls, operations: ordered.map((o) => o.id), skipped: this.skipped };
  }

  private violate(o: Operation, check: string, message: string): void {
    this.violations.push({ operation: o.id, check, message });
  }

  // ---------------------------------------------------------------- documents

  private resolve(schema: Json | undefined): Json | undefined {
    let s = schema;
    for (let i = 0; s && typeof s.$ref === "string" && i < 10; i++) {
      const ref: string = s.$ref;
      if (!ref.startsWith("#/")) throw new Error(`cannot resolve ${ref}`);
      s = ref
        .slice(2)
        .split("/")
        .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce<any>((node, t) => node?.[t], this.doc);
    }
    return s;
  }

  private responsePointer(o: Operation, status: string, mediaType: string): string {
    return `/paths/${pointerToken(o.path)}/${o.method.toLowerCase()}/responses/${status}/content/${pointerToken(mediaType)}/schema`;
  }

  /** The documented response for a status: exact code, then `2XX`-style range, then `default`. */
  private documentedResponse(o: Operation, status: number): { key: string; response: Json } | null {
    const responses: Json = o.op.responses ?? {};
    for (const key of [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, "default"]) {
      if (responses[key]) return { key, response: this.resolve(responses[key])! };
    }
    return null;
  }

  /** Schema of the 200-ish JSON response of a list: the array property and its item schema. */
  async firstPage(): Promise<number> {
    const o = this.operations.find((x) => this.listShape(x) && !(x.op.parameters as Json[]).some((p) => p.in === "path"));
    if (!o) throw new Error("the document has no top-level list");
    const required = { ...this.requiredQuery(o), ...(await this.windowQuery(o)) };
    return (await this.send(o, { query: required })).status;
  }

  async crawl(): Promise<CrawlResult> {
    const records: Record<string, string[]> = {};
    const problems: string[] = [];
    const allLists = this.operations.filter((o) => {
      const shape = this.listShape(o);
      const ref = shape ? this.resolve(shape.body.properties[shape.itemsProp])?.items?.$ref : undefined;
      return typeof ref === "string" && ref.startsWith("#/components/schemas/");
    });
    const entityOf = (o: Operation) => {
      const shape = this.listShape(o)!;
      return String(this.resolve(shape.body.properties[shape.itemsProp])?.items?.$ref).slice("#/components/schemas/".length);
    };
    const hasParent = (o: Operation) => (o.op.parameters as Json[]).some((p) => p.in === "path");
    // A careful client reads the current version of each list, not a deprecated one,
    // unless the current one has a documented known issue and an older one does not.
    const rank = (o: Operation) => (o.op["x-wirebench-known-issue"] ? 2 : 0) + (o.op.deprecated ? 1 : 0);
    const chosen = new Map<string, Operation>();
    for (const o of allLists) {
      const key = `${entityOf(o)}|${hasParent(o)}`;
      const prior = chosen.get(key);
      if (!prior || rank(o) < rank(prior)) chosen.set(key, o);
    }
    const lists = allLists.filter((o) => chosen.get(`${entityOf(o)}|${hasParent(o)}`) === o);
    // Parents first: a subresource list is read under every parent the parent's own list served.
    for (const o of [...lists.filter((x) => !hasParent(x)), ...lists.filter(hasParent)]) {
      const entity = entityOf(o);
      const parents: Record<string, string>[] = [{}];
      for (const p of (o.op.parameters as Json[]).filter((x) => x.in === "path")) {
        const ids = [...new Set(records[p["x-wirebench-ref"]] ?? [])];
        if (!ids.length) problems.push(`${o.id}: no ${p["x-wirebench-ref"]} ids to read ${entity} under`);
        parents.splice(0, parents.length, ...ids.map((id) => ({ [p.name]: id })));
      }
      const served = (records[entity] ??= []);
      for (const pathParams of parents) {
        const problem = await this.readToEnd(o, pathParams, served);
        if (problem) problems.push(`${o.id}${Object.keys(pathParams).length ? ` ${JSON.stringify(pathParams)}` : ""}: ${problem}`);
      }
    }
    return { records, problems, requests: this.calls.length };
  }

  /** Follows one list to its last page (a windowed list window by window, from its first day to the present); returns why it could not, or null. */
  private async readToEnd(o: Operation, pathParams: Record<string, string>, served: string[]): Promise<string | null> {
    const w = this.windowDoc(o);
    if (!w) return this.readPages(o, pathParams, served, {});
    let fromMs = Date.parse(w.historyStart);
    for (let i = 0; i < MAX_WINDOWS; i++) {
      const asked = this.windowAt(o, w, fromMs);
      const reported: { to?: unknown }[] = [];
      const problem = await this.readPages(o, pathParams, served, asked, (body) => reported.push((body as Json)?.[w.report] ?? {}));
      if (problem) return `window from ${new Date(fromMs).toISOString()}: ${problem}`;
      const toMs = this.instantOf(o, w.to, reported[0]?.to);
      if (toMs === null) return `the answer's ${w.report}.to is not a documented timestamp`;
      // A window cut short of the one asked for reached the present.
      if (toMs < fromMs + w.maxSpanDays * DAY_MS || toMs <= fromMs) return null;
      fromMs = toMs;
    }
    return `more than ${MAX_WINDOWS} windows`;
  }

  /** Follows one list (one window of it) to its last page. */
  private async readPages(o: Operation, pathParams: Record<string, string>, served: string[], fixed: Record<string, string>, onPage?: (body: unknown) => void): Promise<string | null> {
    const shape = this.listShape(o)!;
    const params = this.queryParams(o);
    const size = params.find((p) => p.schema?.type === "integer" && typeof p.schema.maximum === "number");
    const position = params.find((p) => p.schema?.type === "integer" && p !== size);
    const cursor = params.find((p) => p.schema?.type === "string" && /cursor/i.test(p.description ?? ""));
    const required = { ...this.requiredQuery(o), ...fixed };
    const isPageNumber = position ? /page/i.test(`${position.name} ${position.description ?? ""}`) : false;
    const pageSize = size ? (size.schema.maximum as number) : null;
    let query: Record<string, string> = { ...required, ...(size ? { [size.name]: String(pageSize) } : {}), ...(position ? { [position.name]: String(position.schema.minimum ?? 0) } : {}) };
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await this.send(o, { pathParams, query });
      if (res.status !== 200) return `page ${page + 1} (${new URLSearchParams(query)}) answered ${res.status}: ${res.text.slice(0, 160)}`;
      const rows = (res.body as Json)?.[shape.itemsProp];
      if (!Array.isArray(rows)) return `page ${page + 1} has no ${shape.itemsProp} array`;
      onPage?.(res.body);
      for (const r of rows) served.push(String((r as Json).id));
      if (!rows.length) return null;
      const link = /<([^>]+)>\s*;\s*rel="?next"?/.exec(res.headers.get("link") ?? "")?.[1] ?? ((res.body as Json)?._links?.next?.href as string | undefined);
      if (link) {
        query = Object.fromEntries(new URL(link, this.baseUrl).searchParams);
        continue;
      }
      // The envelope's next field: the one optional property besides the items and the links (totals are required).
      const bodyNext = Object.entries<Json>(shape.body.properties ?? {}).find(
        ([name]) => name !== shape.itemsProp && name !== "_links" && !(shape.body.required ?? []).includes(name) && (res.body as Json)?.[name] !== undefined,
      );
      const nextValue = bodyNext ? (res.body as Json)[bodyNext[0]] : undefined;
      if (cursor) {
        if (typeof nextValue !== "string" || !nextValue) return null;
        query = { ...query, [cursor.name]: nextValue };
        continue;
      }
      if (!position) return null;
      if (typeof nextValue === "number") {
        query = { ...query, [position.name]: String(nextValue) };
        continue;
      }
      if (bodyNext && nextValue === null) return null;
      if (pageSize !== null && rows.length < pageSize) return null;
      const at = Number(query[position.name]);
      query = { ...query, [position.name]: String(isPageNumber ? at + 1 : at + rows.length) };
    }
    return `more than ${MAX_PAGES} pages`;
  }

  private listShape(o: Operation): { itemsProp: string; itemSchema: Json; body: Json } | null {
    if (o.method !== "GET") return null;
    const ok = Object.entries<Json>(o.op.responses ?? {}).find(([k]) => k.startsWith("2"));
    const schema = ok?.[1]?.content?.["application/json"]?.schema;
    // One documented record (a component schema) is not a page, whatever arrays the record embeds.
    if (typeof schema?.$ref === "string" && schema.$ref.startsWith("#/components/schemas/")) return null;
    const body = this.resolve(schema);
    if (!body || body.type !== "object") return null;
    for (const [name, prop] of Object.entries<Json>(body.properties ?? {})) {
      const p = this.resolve(prop);
      if (p?.type === "array") return { itemsProp: name, itemSchema: this.resolve(p.items) ?? {}, body };
    }
    return null;
  }

  private securityAlternatives(o: Operation): Json[] {
    return (o.op.security ?? this.doc.security ?? []) as Json[];
  }

  private needsAuth(o: Operation): boolean {
    return this.securityAlternatives(o).some((alt) => Object.keys(alt).length > 0);
  }

  private mintOperation(tokenName: string): Operation {
    const o = this.operations.find((x) => x.op["x-wirebench-mint"]?.issues === tokenName);
    if (!o) throw new Error(`no operation issues token "${tokenName}"`);
    return o;
  }

  /** The list operation of an entity: a GET without path parameters whose items are that schema. */
  private listOperationOf(entity: string): Operation {
    const found = this.findListOperation(entity);
    if (!found) throw new Error(`no list operation for entity "${entity}"`);
    return found;
  }

  private findListOperation(entity: string): Operation | undefined {
    const target = `#/components/schemas/${entity}`;
    const candidates = this.operations.filter((o) => {
      const shape = this.listShape(o);
      if (!shape || (o.op.parameters as Json[]).some((p) => p.in === "path")) return false;
      const items = this.resolve(shape.body.properties[shape.itemsProp])?.items;
      return items?.$ref === target;
    });
    // A list with a documented known issue is the last resort: any other version of it is read instead.
    const sound = candidates.filter((o) => !o.op["x-wirebench-known-issue"]);
    return sound.find((o) => o.id.startsWith("list_") && !o.op.deprecated) ?? sound[0] ?? candidates[0];
  }

  // ---------------------------------------------------------------- http

  private async send(o: Operation, spec: RequestSpec = {}): Promise<Response> {
    let path = o.path;
    for (const [name, value] of Object.entries(spec.pathParams ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value));
    const qs = new URLSearchParams(spec.query ?? {}).toString();
    const url = `${this.baseUrl}${path}${qs ? `?${qs}` : ""}`;
    const headers: Record<string, string> = { ...(spec.headers ?? {}) };
    let rawBody = "";
    if (spec.text) {
      rawBody = spec.text.body;
      headers["content-type"] = spec.text.contentType;
    } else if (spec.body instanceof URLSearchParams) {
      rawBody = spec.body.toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else if (spec.body !== undefined) {
      rawBody = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    if (spec.auth !== false) await this.applyAuth(o, headers, url, rawBody);
    return this.exchange(o.method, url, headers, rawBody);
  }

  /** One HTTP exchange, recorded as a call; learns the vendor clock from the first `Date` header. */
  private async exchange(method: string, url: string, headers: Record<string, string>, rawBody: string): Promise<Response> {
    const sentAt = Date.now();
    const res = await fetch(url, { method, headers, body: method === "GET" || method === "HEAD" ? undefined : rawBody });
    const receivedAt = Date.now();
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const date = res.headers.get("date");
    if (date && this.clockOffsetMs === null) this.clockOffsetMs = Date.parse(date) - Math.round((sentAt + receivedAt) / 2);
    let body: unknown;
    const contentType = res.headers.get("content-type") ?? "";
    if (/json/i.test(contentType) && text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    const u = new URL(url);
    this.calls.push({ method, path: this.relativePath(u), query: Object.fromEntries(u.searchParams), status: res.status });
    return { status: res.status, headers: res.headers, text, bytes, body, contentType };
  }

  /** Path of a URL relative to the vendor root, as sent (still percent-encoded). */
  private relativePath(u: URL): string {
    return u.pathname.slice(this.basePath.length) || "/";
  }

  /** Adds the credentials of the first security alternative of an operation. */
  private async applyAuth(o: Operation, headers: Record<string, string>, url: string, rawBody: string): Promise<void> {
    const alternatives = this.securityAlternatives(o);
    if (!alternatives.length) return;
    const schemes: Json = this.doc.components?.securitySchemes ?? {};
    const cookies: string[] = [];
    let signature: { header: string; recipe: Json } | null = null;
    for (const name of Object.keys(alternatives[0])) {
      const s = schemes[name];
      if (!s) throw new Error(`security scheme ${name} is not defined`);
      if (s["x-wirebench-signature"]) {
        signature = { header: s.name, recipe: s["x-wirebench-signature"] };
        continue;
      }
      let value: string;
      if (s["x-wirebench-credential"]) value = this.credential(s["x-wirebench-credential"]);
      else if (s["x-wirebench-token"]) value = await this.token(s["x-wirebench-token"]);
      else if (s["x-wirebench-issues"]) value = await this.token(s["x-wirebench-issues"]);
      else throw new Error(`security scheme ${name} says nowhere where its value comes from`);
      if (s.type === "http") headers.authorization = `${s.scheme === "bearer" ? "Bearer" : s.scheme} ${value}`;
      else if (s.type === "oauth2") headers.authorization = `Bearer ${value}`;
      else if (s.type === "apiKey" && s.in === "header") headers[s.name] = s["x-wirebench-scheme"] ? `${s["x-wirebench-scheme"]} ${value}` : value;
      else if (s.type === "apiKey" && s.in === "cookie") {
        cookies.push(`${s.name}=${value}`);
        const csrfHeader: string | undefined = s["x-wirebench-csrf-header"];
        if (csrfHeader && !SAFE_METHODS.has(o.method)) headers[csrfHeader] = this.csrfToken(s["x-wirebench-token"] ?? s["x-wirebench-issues"]);
      } else throw new Error(`security scheme ${name} (${s.type} in ${s.in}) is not supported`);
    }
    if (cookies.length) headers.cookie = cookies.join("; ");
    if (signature) {
      const r = signature.recipe;
      if (this.clockOffsetMs === null) {
        // Learn the vendor's clock (which may be offset from ours) from an unauthenticated first response.
        await this.exchange(o.method, url, headers["content-type"] ? { "content-type": headers["content-type"] } : {}, rawBody);
        if (this.clockOffsetMs === null) throw new Error("no Date header to learn the vendor clock from");
      }
      const nowMs = Date.now() + this.clockOffsetMs;
      const timestamp = String(r.timestampUnit === "ms" ? nowMs : Math.floor(nowMs / 1000));
      const u = new URL(url);
      headers[r.timestampHeader] = timestamp;
      headers[signature.header] = await signRequest({ method: o.method, path: this.relativePath(u), query: u.searchParams, timestamp, rawBody }, r as never, this.credential(r.secret));
    }
  }

  private credential(name: string): string {
    const v = this.credentials[name];
    if (v === undefined) throw new Error(`the world has no credential "${name}"`);
    return v;
  }

  /** A token by name, minted through the operation that issues it (once). */
  private async token(name: string): Promise<string> {
    const cached = this.tokens.get(name);
    if (cached) return cached;
    const o = this.mintOperation(name);
    const res = await this.send(o, this.mintRequest(o));
    const value = this.tokenFrom(o, res);
    if (!value) throw new Error(`${o.id} answered ${res.status} without a "${name}" token: ${res.text.slice(0, 200)}`);
    this.tokens.set(name, value);
    const csrfField: unknown = o.op["x-wirebench-mint"].csrfField;
    const csrf = typeof csrfField === "string" ? (res.body as Json | undefined)?.[csrfField] : undefined;
    if (typeof csrf === "string") this.csrfTokens.set(name, csrf);
    return value;
  }

  /** The CSRF token of a session, handed out by the login that opened it (the document names the field). */
  private csrfToken(name: string): string {
    const csrf = this.csrfTokens.get(name);
    if (!csrf) throw new Error(`writes need the CSRF token of session "${name}", but its login answered none`);
    return csrf;
  }

  private mintRequest(o: Operation): RequestSpec {
    const m: Json = o.op["x-wirebench-mint"];
    if (m.kind === "client_credentials") {
      return { body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.credential(m.clientId), client_secret: this.credential(m.clientSecret) }) };
    }
    if (m.kind === "login") return { body: new URLSearchParams({ username: this.credential(m.username), password: this.credential(m.password) }) };
    return {}; // session_exchange: the security requirement carries the token it needs
  }

  private tokenFrom(o: Operation, res: Response): string | null {
    const m: Json = o.op["x-wirebench-mint"];
    if (res.status < 200 || res.status > 299) return null;
    if (m.kind === "login") {
      const cookie = new RegExp(`(?:^|[,;\\s])${m.cookie}=([^;,\\s]+)`).exec(res.headers.get("set-cookie") ?? "");
      return cookie?.[1] ?? null;
    }
    const v = (res.body as Json | undefined)?.[m.responseField ?? "access_token"];
    return typeof v === "string" ? v : null;
  }

  // ---------------------------------------------------------------- inputs

  /** Ids of live records of an entity, from its list operation (cached). */
  private async refIds(entity: string): Promise<string[]> {
    const cached = this.refCache.get(entity);
    if (cached) return cached;
    const o = this.listOperationOf(entity);
    const res = await this.send(o);
    if (res.status !== 200) throw new Error(`${o.id} answered ${res.status} while looking up ${entity} ids`);
    const ids = this.rememberIds(o, res);
    if (!ids?.length) throw new Error(`${o.id} returned no live ${entity} records`);
    return ids;
  }

  /** Keeps the ids of live records a top-level list returned, for later `x-wirebench-ref` inputs. */
  private rememberIds(o: Operation, res: Response): string[] | null {
    const shape = this.listShape(o);
    const ref: unknown = shape && this.resolve(shape.body.properties[shape.itemsProp])?.items?.$ref;
    if (!shape || typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return null;
    const entity = ref.slice("#/components/schemas/".length);
    if (this.refCache.has(entity) || this.findListOperation(entity) !== o) return this.refCache.get(entity) ?? null;
    const items = (res.body as Json | undefined)?.[shape.itemsProp];
    if (!Array.isArray(items)) return null;
    const deletedFlags = Object.entries<Json>(shape.itemSchema.properties ?? {})
      .filter(([, p]) => p.type === "boolean" && /deleted/i.test(p.description ?? ""))
      .map(([name]) => name);
    const ids = items.filter((x: Json) => x && x.id !== undefined && !deletedFlags.some((f) => x[f] === true)).map((x: Json) => String(x.id));
    if (ids.length) this.refCache.set(entity, ids);
    return ids;
  }

  private async pathParams(o: Operation, choice = 0): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const p of o.op.parameters as Json[]) {
      if (p.in !== "path") continue;
      const entity = p["x-wirebench-ref"];
      if (!entity) throw new Error(`path parameter ${p.name} names no entity (x-wirebench-ref)`);
      const ids = await this.refIds(entity);
      out[p.name] = ids[Math.min(choice, ids.length - 1)];
    }
    return out;
  }

  /** A minimal valid value for a schema: required properties, first enum value, real ids for refs, one array item. */
  private async valueFor(schemaIn: Json | undefined): Promise<unknown> {
    const schema = this.resolve(schemaIn) ?? {};
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
    if (schema["x-wirebench-ref"]) {
      const id = (await this.refIds(schema["x-wirebench-ref"]))[0];
      return type === "integer" || type === "number" ? Number(id) : id;
    }
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if ("const" in schema) return schema.const;
    switch (type) {
      case "object": {
        const out: Json = {};
        for (const name of (schema.required ?? []) as string[]) out[name] = await this.valueFor(schema.properties?.[name]);
        return out;
      }
      case "array":
        return [await this.valueFor(schema.items)];
      case "integer":
      case "number":
        return schema.minimum ?? 1;
      case "boolean":
        return true;
      default:
        return typeof schema.maxLength === "number" ? STRING_VALUE.slice(0, schema.maxLength) : STRING_VALUE;
    }
  }

  /** Required header parameters: `If-Match` gets the ETag of a read of the same path. */
  private async headerParams(o: Operation, pathParams: Record<string, string>): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const p of o.op.parameters as Json[]) {
      if (p.in !== "header" || !p.required) continue;
      if (p.name.toLowerCase() === "if-match") {
        const read = this.operations.find((x) => x.method === "GET" && x.path === o.path);
        if (!read) throw new Error(`If-Match is required but ${o.path} has no GET to read an ETag from`);
        const res = await this.send(read, { pathParams });
        const etag = res.headers.get("etag");
        if (!etag) throw new Error(`${read.id} gave no ETag for If-Match`);
        out[p.name] = etag;
      } else out[p.name] = String(await this.valueFor(p.schema));
    }
    return out;
  }

  private async validRequest(o: Operation): Promise<RequestSpec> {
    if (o.op["x-wirebench-mint"]) return this.mintRequest(o);
    const pathParams = await this.pathParams(o);
    const headers = await this.headerParams(o, pathParams);
    const query: Record<string, string> = {};
    for (const p of o.op.parameters as Json[]) if (p.in === "query" && p.required) query[p.name] = String(await this.valueFor(p.schema));
    Object.assign(query, await this.windowQuery(o));
    const schema = o.op.requestBody?.content?.["application/json"]?.schema;
    const body = schema ? await this.valueFor(schema) : undefined;
    const form = o.op.requestBody?.content?.["multipart/form-data"];
    const text = !schema && form ? await this.formBody(form) : undefined;
    return { pathParams, headers, query, body, ...(text ? { text } : {}) };
  }

  /**
   * A minimal valid `multipart/form-data` body: its required parts, a file
   * part (`contentMediaType` or `format: binary`) as a short file of the
   * first media type its encoding allows.
   */
  private async formBody(media: Json): Promise<{ body: string; contentType: string }> {
    const schema = this.resolve(media.schema) ?? {};
    const boundary = "wirebench-contract-boundary";
    const parts: string[] = [];
    for (const name of (schema.required ?? []) as string[]) {
      const prop = this.resolve(schema.properties?.[name]) ?? {};
      if (prop.contentMediaType !== undefined || prop.format === "binary") {
        const type = String(media.encoding?.[name]?.contentType ?? prop.contentMediaType ?? "application/octet-stream")
          .split(",")[0]
          .trim();
        parts.push(`Content-Disposition: form-data; name="${name}"; filename="contract.txt"\r\nContent-Type: ${type}\r\n\r\n${STRING_VALUE}`);
      } else parts.push(`Content-Disposition: form-data; name="${name}"\r\n\r\n${String(await this.valueFor(prop))}`);
    }
    return { body: `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("")}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
  }

  // ---------------------------------------------------------------- checks

  /** Status documented, content type and body as documented; returns whether the body validated. */
  private checkResponse(o: Operation, res: Response, label: string): boolean {
    const documented = this.documentedResponse(o, res.status);
    if (!documented) {
      this.violate(o, "status", `${label}: status ${res.status} is not documented (documented: ${Object.keys(o.op.responses ?? {}).join(", ")}); body ${res.text.slice(0, 200)}`);
      return false;
    }
    const content: Json | undefined = documented.response.content;
    if (!content || !Object.keys(content).length) return true;
    const mediaType = Object.keys(content).find((t) => res.contentType.toLowerCase().startsWith(t.toLowerCase()));
    if (!mediaType) {
      this.violate(o, "content-type", `${label}: ${res.status} answered ${res.contentType || "no content type"}, documented ${Object.keys(content).join(", ")}`);
      return false;
    }
    if (!content[mediaType].schema || !/json/i.test(mediaType)) return true;
    if (res.body === undefined) {
      this.violate(o, "schema", `${label}: ${res.status} body is not JSON: ${res.text.slice(0, 200)}`);
      return false;
    }
    const errors = this.validator.validate(this.responsePointer(o, documented.key, mediaType), res.body);
    if (errors.length) this.violate(o, "schema", `${label}: ${res.status} body does not match the documented schema: ${errors.join("; ")}`);
    return errors.length === 0;
  }

  /** Documented headers of a 2xx response; those about a next page only when one exists. */
  private checkHeaders(o: Operation, res: Response, label: string, nextPageExists: boolean | null): void {
    const documented = this.documentedResponse(o, res.status);
    for (const [name, h] of Object.entries<Json>(documented?.response.headers ?? {})) {
      const conditional = /next page/i.test(h.description ?? "");
      if (conditional && nextPageExists !== true) continue;
      const value = res.headers.get(name);
      if (value === null) this.violate(o, "header", `${label}: documented header ${name} is missing${conditional ? " although a next page exists" : ""}`);
      else if (conditional && /rel="?next/i.test(h.description ?? "") && !/rel="?next"?/i.test(value)) this.violate(o, "header", `${label}: ${name} has no rel="next": ${value}`);
    }
  }

  private async checkOperation(o: Operation): Promise<void> {
    if ((o.op.parameters as Json[]).some((p) => p.in === "path" && p["x-wirebench-flow"])) return this.checkFlowStep(o);
    const spec = await this.validRequest(o);
    const res = await this.send(o, spec);
    this.checkResponse(o, res, "valid request");
    if (res.status < 200 || res.status > 299) {
      this.violate(o, "status", `valid request answered ${res.status}: ${res.text.slice(0, 300)}`);
    } else {
      const list = this.listShape(o);
      this.checkHeaders(o, res, "valid request", list ? null : false);
      if (list && res.status === 200) this.rememberIds(o, res);
      if (o.op["x-wirebench-mint"] && !this.tokenFrom(o, res)) this.violate(o, "mint", `no token in ${o.op["x-wirebench-mint"].responseField ?? "the response"}`);
    }
    if (this.needsAuth(o)) {
      const anon = await this.send(o, { ...spec, headers: {}, auth: false });
      if (anon.status !== 401) this.violate(o, "auth", `without credentials answered ${anon.status}, expected 401`);
      else this.checkResponse(o, anon, "without credentials");
    }
    if (this.listShape(o)) await this.checkList(o);
  }

  /**
   * A step of a flow whose path parameter only the flow's earlier steps can fill
   * (`x-wirebench-flow`: an export job id). Without that state there is no valid
   * request; what can be checked is that an id no flow made answers a documented
   * 404 and no credentials a documented 401. The flow has its own contract.
   */
  private async checkFlowStep(o: Operation): Promise<void> {
    const pathParams = Object.fromEntries((o.op.parameters as Json[]).filter((p) => p.in === "path").map((p) => [p.name as string, "contract-unknown"]));
    const res = await this.send(o, { pathParams });
    this.checkResponse(o, res, "an id no flow made");
    if (res.status !== 404) this.violate(o, "status", `an id no flow made answered ${res.status}, expected 404`);
    if (this.needsAuth(o)) {
      const anon = await this.send(o, { pathParams, auth: false });
      if (anon.status !== 401) this.violate(o, "auth", `without credentials answered ${anon.status}, expected 401`);
      else this.checkResponse(o, anon, "without credentials");
    }
  }

  /** The documented window of a list read one time window at a time, or null. */
  private windowDoc(o: Operation): WindowDoc | null {
    const w = o.op["x-wirebench-window"];
    return w && typeof w.from === "string" && typeof w.to === "string" && typeof w.maxSpanDays === "number" ? (w as WindowDoc) : null;
  }

  /** A timestamp for a window parameter, in the format its schema documents. */
  private timeValue(o: Operation, param: string, ms: number): string {
    const format = this.queryParams(o).find((p) => p.name === param)?.schema?.format;
    if (format === "unix-s") return String(Math.floor(ms / 1000));
    if (format === "unix-ms") return String(ms);
    return new Date(ms).toISOString().replace(".000Z", "Z");
  }

  /** An instant the vendor reported for a window parameter's value, in ms; null when it is not one. */
  private instantOf(o: Operation, param: string, v: unknown): number | null {
    const format = this.queryParams(o).find((p) => p.name === param)?.schema?.format;
    if (typeof v === "number") return format === "unix-s" ? v * 1000 : v;
    if (typeof v !== "string") return null;
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? null : ms;
  }

  /** The query of the documented longest window starting at `fromMs`. */
  private windowAt(o: Operation, w: WindowDoc, fromMs: number): Record<string, string> {
    return { [w.from]: this.timeValue(o, w.from, fromMs), [w.to]: this.timeValue(o, w.to, fromMs + w.maxSpanDays * DAY_MS) };
  }

  private readonly sampleWindows = new Map<string, Record<string, string>>();

  /**
   * The window a windowed list's checks read (empty for other lists): the first
   * documented-length window from its first day that holds more than two pages
   * of the contract's page size, found by asking window after window.
   */
  private async windowQuery(o: Operation): Promise<Record<string, string>> {
    const w = this.windowDoc(o);
    if (!w) return {};
    const known = this.sampleWindows.get(o.id);
    if (known) return known;
    let fromMs = Date.parse(w.historyStart);
    let chosen = this.windowAt(o, w, fromMs);
    for (let i = 0; i < MAX_WINDOWS; i++) {
      const query = this.windowAt(o, w, fromMs);
      const res = await this.send(o, { pathParams: await this.pathParams(o), query: { ...this.requiredQuery(o), ...query } });
      const shape = this.listShape(o);
      const rows = shape ? (res.body as Json | undefined)?.[shape.itemsProp] : undefined;
      if (res.status !== 200 || !Array.isArray(rows)) break;
      if (rows.length > PAGE_SIZE * 2) {
        chosen = query;
        break;
      }
      const toMs = this.instantOf(o, w.to, (res.body as Json)?.[w.report]?.to);
      if (toMs === null || toMs <= fromMs || toMs < fromMs + w.maxSpanDays * DAY_MS) break;
      fromMs = toMs;
    }
    this.sampleWindows.set(o.id, chosen);
    return chosen;
  }

  /** Query parameters documented as required with one allowed value (a sort a list needs), to send on every request. */
  private requiredQuery(o: Operation): Record<string, string> {
    const required = this.queryParams(o).filter((p) => p.required && Array.isArray(p.schema?.enum));
    return Object.fromEntries(required.map((p) => [p.name as string, String(p.schema.enum[0])]));
  }

  private queryParams(o: Operation): Json[] {
    return (o.op.parameters as Json[]).filter((p) => p.in === "query");
  }

  private async checkList(o: Operation): Promise<void> {
    const shape = this.listShape(o)!;
    const params = this.queryParams(o);
    const size = params.find((p) => p.schema?.type === "integer" && typeof p.schema.maximum === "number");
    const position = params.find((p) => p.schema?.type === "integer" && p !== size);
    const cursor = params.find((p) => p.schema?.type === "string" && /cursor/i.test(p.description ?? ""));
    // Required parameters (a sort the list needs for stable pages, a window) go on every request; the others are flags.
    const required = { ...this.requiredQuery(o), ...(await this.windowQuery(o)) };
    const flags = params.filter((p) => Array.isArray(p.schema?.enum) && !p.required);
    const items = (r: Response): unknown[] | null => {
      const v = (r.body as Json | undefined)?.[shape.itemsProp];
      return Array.isArray(v) ? v : null;
    };
    const key = (x: unknown) => JSON.stringify((x as Json)?.id ?? x);
    const hasParent = (o.op.parameters as Json[]).some((p) => p.in === "path");

    if (size) {
      const max: number = size.schema.maximum;
      const pageSize = Math.max(size.schema.minimum ?? 1, Math.min(PAGE_SIZE, max));
      const start: number | null = position ? (position.schema.minimum ?? 0) : null;
      const isPageNumber = position ? /page/i.test(`${position.name} ${position.description ?? ""}`) : false;
      const firstOf = (n: number): Record<string, string> => ({ ...required, [size.name]: String(n), ...(position ? { [position.name]: String(start) } : {}) });
      /** The query of the page after `query`, from the documented parameters (and the cursor the response carries). */
      const following = (query: Record<string, string>, res: Response): Record<string, string> | null => {
        if (position) {
          const at = Number(query[position.name]);
          return { ...query, [position.name]: String(isPageNumber ? at + 1 : at + Number(query[size.name])) };
        }
        if (!cursor) return null;
        const next = Object.entries<Json>(shape.body.properties ?? {}).find(
          ([name, p]) => name !== shape.itemsProp && [p.type].flat().includes("string") && typeof (res.body as Json)[name] === "string",
        );
        return next ? { ...query, [cursor.name]: (res.body as Json)[next[0]] } : null;
      };
      const fetchPage = async (label: string, pathParams: Record<string, string>, query: Record<string, string>) => {
        const res = await this.send(o, { pathParams, query });
        const full = `${label} (${new URLSearchParams(query)})`;
        this.checkResponse(o, res, full);
        if (res.status !== 200) this.violate(o, "paging", `${full} answered ${res.status}: ${res.text.slice(0, 200)}`);
        return { res, label: full, rows: res.status === 200 ? (items(res) ?? []) : null };
      };

      // Two consecutive small pages: different records, and the next-page headers on the first.
      let exercised = false;
      let pagedParent: Record<string, string> | null = null;
      for (let choice = 0; choice < (hasParent ? PARENTS_TO_TRY : 1) && !exercised; choice++) {
        const pathParams = await this.pathParams(o, choice);
        const a = await fetchPage("first page", pathParams, firstOf(pageSize));
        if (!a.rows) break;
        if (a.rows.length < pageSize) continue; // a short first page is the last one
        const secondQuery = following(firstOf(pageSize), a.res);
        if (!secondQuery) continue;
        const b = await fetchPage("second page", pathParams, secondQuery);
        if (!b.rows) break;
        if (!b.rows.length) continue;
        exercised = true;
        pagedParent = pathParams;
        const firstKeys = new Set(a.rows.map(key));
        const repeated = b.rows.map(key).filter((k) => firstKeys.has(k));
        if (repeated.length) this.violate(o, "paging", `${b.label} repeats records of the first page: ${repeated.join(", ")}`);
        if (a.rows.length > pageSize || b.rows.length > pageSize) this.violate(o, "paging", `pages hold ${a.rows.length} and ${b.rows.length} records, asked for ${pageSize}`);
        this.checkHeaders(o, a.res, a.label, true);
      }
      if (!exercised) this.skipped.push(`${o.id}: no second page to compare`);

      // At the documented maximum a page is full unless it is the last one.
      const pathParams = pagedParent ?? (await this.pathParams(o));
      const top = await fetchPage("page at the documented maximum", pathParams, firstOf(max));
      if (top.rows && top.rows.length > max) this.violate(o, "paging", `${top.label} returned ${top.rows.length} records, more than ${max}`);
      if (top.rows && top.rows.length < max) {
        const afterQuery = following(firstOf(max), top.res);
        const after = afterQuery ? await fetchPage("page after it", pathParams, afterQuery) : null;
        if (after?.rows?.length) this.violate(o, "paging", `${top.label} held only ${top.rows.length} records although more followed: the documented maximum ${max} is not honoured`);
      }

      // Over the documented maximum: refused with a documented 400, or clamped.
      const overQuery = firstOf(max + 1);
      const over = await this.send(o, { pathParams, query: overQuery });
      const overLabel = `page size above the maximum (${new URLSearchParams(overQuery)})`;
      this.checkResponse(o, over, overLabel);
      if (over.status === 200) {
        const n = items(over)?.length ?? 0;
        if (n > max) this.violate(o, "paging", `${overLabel} returned ${n} records, more than the documented maximum ${max}`);
      } else if (over.status !== 400) this.violate(o, "paging", `${overLabel} answered ${over.status}; expected 200 (clamped) or 400`);
    }

    // Flags switch on the fields documented as "Only returned with `flag=value`".
    for (const flag of flags) {
      const value = String(flag.schema.enum[0]);
      const fields = Object.entries<Json>(this.resolve(shape.itemSchema)?.properties ?? {})
        .filter(([, p]) => (p.description ?? "").includes(`Only returned with \`${flag.name}=${value}\``))
        .map(([name]) => name);
      const query: Record<string, string> = { ...required, [flag.name]: value };
      if (size) query[size.name] = String(Math.min(PAGE_SIZE * 5, size.schema.maximum));
      const res = await this.send(o, { pathParams: await this.pathParams(o), query });
      const label = `with ${flag.name}=${value}`;
      this.checkResponse(o, res, label);
      if (res.status !== 200) {
        this.violate(o, "flag", `${label} answered ${res.status}`);
        continue;
      }
      const rows = (items(res) ?? []) as Json[];
      if (!rows.length) this.skipped.push(`${o.id}: ${label} returned no records`);
      for (const field of fields) {
        const missing = rows.filter((r) => !(field in r)).length;
        if (missing) this.violate(o, "flag", `${label}: ${missing} of ${rows.length} records lack ${field}`);
      }
    }
  }
}
