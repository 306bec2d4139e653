/**
 * @module export-contract
 * The export flow of a live vendor checked against its own documents only:
 * the OpenAPI document names the three steps (`x-wirebench-export`), the
 * job's status and URL fields, the file format and the exports a request may
 * name; the Exports page's column reference names each file's columns and
 * the record field each holds. For every export the contract requests it,
 * downloads it once before it is ready (a documented refusal), polls until
 * ready, downloads the file, reads it as documented (byte order mark,
 * delimiter, line ending, RFC 4180 quoting) and compares its header with the
 * column reference and its values with a documented list page of the same
 * records. It returns what it found instead of asserting.
 */
import { CsvError, parseCsv } from "./csv.ts";
import { type ContractCall, type ContractResponse, documentedClient, type Violation } from "./openapi-contract.ts";

type Json = Record<string, any>;

/** What the contract reads: the vendor root, the world's credentials, and the documents (as served, or edited). */
export interface ExportTarget {
  baseUrl: string;
  credentials: Record<string, string>;
  /** The OpenAPI document. */
  doc: Json;
  /** The Exports page (Markdown). */
  exportsPage: string;
}

/** One documented column. */
export interface DocumentedColumn {
  header: string;
  field: string;
  type: string;
}

/** What one export's file held. */
export interface ExportFinding {
  name: string;
  /** Entity of the rows (its component schema), as the column reference links it. */
  entity: string;
  /** The file's header row (after the documented byte order mark, if any, is stripped). */
  header: string[];
  /** Values of the `id` column, in file order. */
  ids: string[];
  /** Status reads until the job was ready. */
  polls: number;
  /** Cells compared with the JSON list's values. */
  valuesCompared: number;
}

export interface ExportReport {
  violations: Violation[];
  exports: ExportFinding[];
  /** Every request sent, as the vendor's request log should show it. */
  calls: ContractCall[];
}

const BOM = [0xef, 0xbb, 0xbf];
const MAX_POLLS = 50;

/** Fetches the documents a world serves under `_docs/`. */
export async function fetchExportDocs(baseUrl: string): Promise<{ doc: Json; exportsPage: string }> {
  const doc = (await (await fetch(`${baseUrl}/_docs/openapi.json`)).json()) as Json;
  const page = await fetch(`${baseUrl}/_docs/exports.md`);
  return { doc, exportsPage: page.ok ? await page.text() : "" };
}

/** The column reference of the Exports page: export name -> entity and columns, from each `### \`name\`` section's table. */
export function columnReference(markdown: string): Map<string, { entity: string; columns: DocumentedColumn[] }> {
  const out = new Map<string, { entity: string; columns: DocumentedColumn[] }>();
  const start = markdown.indexOf("## Column reference");
  if (start < 0) return out;
  const sections = markdown.slice(start).split(/^### /m).slice(1);
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, "")
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, "|"));
  const unquote = (c: string) => c.replace(/^`|`$/g, "");
  for (const section of sections) {
    const lines = section.split("\n");
    const name = unquote(lines[0].trim());
    // The rows' entity is named by the link to its resource page: `[job application](resource-job-applications.md)`.
    const entity = (/\[([^\]]+)\]\(resource-[a-z-]+\.md\)/.exec(section)?.[1] ?? "").replace(/ /g, "_");
    const table = lines.filter((l) => l.trim().startsWith("|"));
    const head = table.length ? cells(table[0]).map((c) => c.toLowerCase()) : [];
    const at = (k: string) => head.indexOf(k);
    const columns = table.slice(2).map((l) => {
      const c = cells(l);
      return { header: c[at("column")], field: unquote(c[at("field")]), type: c[at("type")] };
    });
    out.set(name, { entity, columns });
  }
  return out;
}

/** Runs every documented export to its file. */
export async function runExportContract(target: ExportTarget): Promise<ExportReport> {
  const client = documentedClient(target);
  const violations: Violation[] = [];
  const findings: ExportFinding[] = [];
  const violate = (operation: string, check: string, message: string) => violations.push({ operation, check, message });
  const ops = Object.entries<Json>(target.doc.paths ?? {}).flatMap(([path, item]) => Object.entries<Json>(item).map(([method, op]) => ({ path, method, op })));
  const step = (name: string) => ops.find((o) => o.op["x-wirebench-export"]?.step === name);
  const request = step("request");
  const status = step("status");
  const download = step("download");
  if (!request || !status || !download) {
    violate("exports", "setup", "the document does not name the request, status and download steps (x-wirebench-export)");
    return { violations, exports: findings, calls: client.calls };
  }
  const req: Json = request.op["x-wirebench-export"];
  const st: Json = status.op["x-wirebench-export"];
  const file: Json = download.op["x-wirebench-export"];
  const idPointer = String(request.op.responses?.["202"]?.links?.status?.parameters?.id ?? "$response.body#/id").replace(/^\$response\.body#\//, "");
  const names: string[] = request.op.requestBody?.content?.["application/json"]?.schema?.properties?.[req.resourceField]?.enum ?? [];
  const reference = columnReference(target.exportsPage);
  for (const name of names) if (!reference.has(name)) violate(request.op.operationId, "columns", `export ${name} has no column reference on the Exports page`);
  for (const name of reference.keys()) if (!names.includes(name)) violate(request.op.operationId, "columns", `the Exports page documents ${name}, which the request does not accept`);
  const url = (path: string, id: string) => `${target.baseUrl.replace(/\/$/, "")}${path.replace(/\{id\}/, encodeURIComponent(id))}`;

  for (const name of names.filter((n) => reference.has(n))) {
    const documented = reference.get(name)!;
    const queued = await client.send(request.op.operationId, { body: { [req.resourceField]: name } });
    if (queued.status !== 202) {
      violate(request.op.operationId, "status", `requesting ${name} answered ${queued.status}: ${queued.text.slice(0, 200)}`);
      continue;
    }
    const id = String((queued.body as Json)?.[idPointer]);
    if (queued.headers.get("location") !== url(status.path, id)) violate(request.op.operationId, "header", `Location is ${queued.headers.get("location")}, not the job's status URL`);
    const early = await client.send(download.op.operationId, { pathParams: { id } });
    if (early.status !== 409) violate(download.op.operationId, "status", `downloading ${name} before it was ready answered ${early.status}, documented 409`);

    let job: Json | null = null;
    let polls = 0;
    while (polls < MAX_POLLS && !job) {
      const res = await client.send(status.op.operationId, { pathParams: { id } });
      polls += 1;
      if (res.status !== 200) {
        violate(status.op.operationId, "status", `status of ${name} answered ${res.status}`);
        break;
      }
      if ((res.body as Json)?.[st.statusField] === st.ready) job = res.body as Json;
    }
    if (!job) {
      violate(status.op.operationId, "ready", `${name} was not ${st.ready} after ${polls} status reads`);
      continue;
    }
    if (job[st.downloadUrlField] !== url(download.path, id)) violate(status.op.operationId, "schema", `${st.downloadUrlField} is ${job[st.downloadUrlField]}, not the documented download path`);

    const got = await client.send(download.op.operationId, { pathParams: { id } });
    if (got.status !== 200) {
      violate(download.op.operationId, "status", `downloading ${name} answered ${got.status}`);
      continue;
    }
    if (!got.contentType.toLowerCase().startsWith("text/csv")) violate(download.op.operationId, "content-type", `${name} came as ${got.contentType}, documented text/csv`);
    const rows = readFile(got, file, (message) => violate(download.op.operationId, "format", `${name}: ${message}`));
    if (!rows) continue;
    const [header = [], ...records] = rows;
    const expected = documented.columns.map((c) => c.header);
    if (JSON.stringify(header) !== JSON.stringify(expected)) violate(download.op.operationId, "columns", `${name}: header ${JSON.stringify(header)} is not the documented ${JSON.stringify(expected)}`);
    const short = records.filter((r) => r.length !== header.length).length;
    if (short) violate(download.op.operationId, "format", `${name}: ${short} rows do not have ${header.length} fields`);
    const idColumn = documented.columns.findIndex((c) => c.field === "id");
    if (idColumn < 0) violate(download.op.operationId, "columns", `${name}: no documented column holds the id`);
    const ids = idColumn < 0 ? [] : records.map((r) => r[idColumn]);
    const compared = await compareWithList(client, target.doc, documented, records, (message) => violate(download.op.operationId, "values", `${name}: ${message}`));
    findings.push({ name, entity: documented.entity, header, ids, polls, valuesCompared: compared });
  }
  return { violations, exports: findings, calls: client.calls };
}

/** Reads a downloaded file as the document says it is written; null (and a violation) when it cannot be read. */
function readFile(got: ContractResponse, format: Json, violate: (message: string) => void): string[][] | null {
  const bytes = got.bytes;
  const hasBom = BOM.every((b, i) => bytes[i] === b);
  if (format.bom && !hasBom) violate("the documented byte order mark is missing");
  if (!format.bom && hasBom) violate("the file starts with a byte order mark the document does not mention");
  // Only a documented mark is stripped: an undocumented one stays in the first header, as a client's reader would keep it.
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(format.bom && hasBom ? bytes.subarray(3) : bytes);
  try {
    return parseCsv(text, { delimiter: format.delimiter, lineEnding: format.lineEnding });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    violate(`not CSV as documented: ${err.message}`);
    return null;
  }
}

/**
 * Compares the file's cells with the first page of the entity's documented
 * list, read at its largest page size with every documented flag on: a cell
 * holds the JSON value as text, an empty cell a null. Returns the cells compared.
 */
async function compareWithList(
  client: ReturnType<typeof documentedClient>,
  doc: Json,
  documented: { entity: string; columns: DocumentedColumn[] },
  records: string[][],
  violate: (message: string) => void,
): Promise<number> {
  const target = `#/components/schemas/${documented.entity}`;
  const list = Object.values<Json>(doc.paths ?? {})
    .map((item) => item.get as Json | undefined)
    .find((op) => {
      if (!op || op.deprecated || (op.parameters ?? []).some((p: Json) => p.in === "path")) return false;
      const props = op.responses?.["200"]?.content?.["application/json"]?.schema?.properties ?? {};
      return Object.values<Json>(props).some((p) => p.type === "array" && p.items?.$ref === target);
    });
  if (!list) {
    violate(`no documented list of ${documented.entity} to compare values with`);
    return 0;
  }
  const params: Json[] = list.parameters ?? [];
  const query: Record<string, string> = {};
  for (const p of params) {
    if (p.in !== "query") continue;
    if (Array.isArray(p.schema?.enum)) query[p.name] = String(p.schema.enum[0]);
    else if (p.schema?.type === "integer" && typeof p.schema.maximum === "number") query[p.name] = String(p.schema.maximum);
  }
  const res = await client.send(list.operationId, { query });
  const itemsProp = Object.entries<Json>(list.responses["200"].content["application/json"].schema.properties).find(([, p]) => p.type === "array")![0];
  const items: Json[] = (res.body as Json)?.[itemsProp] ?? [];
  if (res.status !== 200 || !items.length) {
    violate(`${list.operationId} answered ${res.status} with ${items.length} records`);
    return 0;
  }
  const idColumn = documented.columns.findIndex((c) => c.field === "id");
  const byId = new Map(records.map((r) => [r[idColumn], r]));
  let compared = 0;
  const mismatches: string[] = [];
  for (const item of items) {
    const row = byId.get(String(item.id));
    if (!row) continue;
    documented.columns.forEach((c, i) => {
      const v = item[c.field];
      const asApi = v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
      // A timestamp column the reference marks with a day-first pattern holds the API's instant written that way (UTC).
      const text = /\(DD\/MM\/YYYY HH:MM:SS\)$/.test(c.type) && asApi ? dayFirst(asApi) : asApi;
      compared += 1;
      if (row[i] !== text) mismatches.push(`${item.id} ${c.header}: file ${JSON.stringify(row[i])}, API ${JSON.stringify(text)}`);
    });
  }
  if (mismatches.length) violate(`${mismatches.length} cells differ from the JSON API: ${mismatches.slice(0, 5).join("; ")}`);
  return compared;
}

/** An instant as `DD/MM/YYYY HH:MM:SS` in UTC; the text as it is when it is no instant. */
function dayFirst(text: string): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return text;
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}
