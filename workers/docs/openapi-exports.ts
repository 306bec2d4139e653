/**
 * @module openapi-exports
 * The export flow in the OpenAPI document: the request (`202` with the job),
 * the status read and the CSV download (`text/csv`), the job schema, and the
 * wirebench extensions a documents-only client reads: `x-wirebench-export`
 * (each step's role, the job's status and URL fields, the file format) and
 * `x-wirebench-flow` on a path parameter only the flow can fill (a job id).
 */
import { EXPORT_ERRORS } from "../../mechanics/exports/define.ts";
import type { DocExports } from "../../mechanics/exports/doc-model.ts";
import { exportStyle } from "../../mechanics/exports/index.ts";

type Json = Record<string, unknown>;

/** What the main renderer lends: its error responses. */
export interface OpenApiKit {
  /** Errors every authenticated operation may answer (400, 401, 429). */
  commonErrors: Json;
  errorResponse: (description: string) => Json;
}

/** Name of the job schema in `components.schemas`. */
export const EXPORT_JOB_SCHEMA = "ExportJob";

/** The job schema. */
export function exportJobSchema(x: DocExports): Json {
  const e = x.declaration;
  const style = exportStyle(e);
  const f = style.fields(e);
  const limited = style.downloadLimit(e) !== null;
  const properties: Json = {
    [f.id]: { type: "string", description: "Job id." },
    [f.status]: { type: "string", enum: ["queued", "running", "ready", ...(limited ? ["expired"] : [])], description: "Where the job stands." },
    [f.resource]: { type: "string", enum: x.exports.map((ex) => ex.name), description: "The export the job runs." },
    [f.requestedAt]: { ...x.timeSchema, description: "When the export was requested (the moment of the snapshot)." },
    [f.rowCount]: { type: ["integer", "null"], description: "Rows in the file, header not counted; null until ready." },
    [f.downloadUrl]: { type: ["string", "null"], format: "uri", description: "Absolute URL of the file; null until ready." },
  };
  if (limited) properties[f.downloadsLeft] = { type: "integer", description: "Downloads the link still allows." };
  return { type: "object", description: "An export job.", properties, required: Object.keys(properties) };
}

function toTemplate(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, "{$1}");
}

const JOB_ID = { name: "id", in: "path", required: true, description: "Id of the export job.", schema: { type: "string" }, "x-wirebench-flow": "export" };

/** The flow's operations: `[path template, method, operation]`, without security (the caller adds it). */
export function exportOperations(x: DocExports, kit: OpenApiKit): [string, string, Json][] {
  const e = x.declaration;
  const style = exportStyle(e);
  const routes = style.routes(e);
  const f = style.fields(e);
  const format = style.format(e);
  const job = (description: string, links: Json) => ({
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${EXPORT_JOB_SCHEMA}` } } },
    links,
  });
  const linkTo = (operationId: string) => ({ operationId, parameters: { id: `$response.body#/${f.id}` } });
  const bodyProps: Json = { [style.resourceField(e)]: { type: "string", enum: x.exports.map((ex) => ex.name), description: "The export to run." } };
  if (x.since)
    bodyProps[x.since.name] = {
      ...x.timeSchema,
      description: `${x.since.description} Only for ${x.exports
        .filter((ex) => ex.incremental)
        .map((ex) => `\`${ex.name}\``)
        .join(", ")}.`,
    };
  const request: Json = {
    operationId: "request_export",
    summary: "Request an export",
    description: "Snapshots the live records of the named export and queues a job; poll its status until it is ready.",
    tags: ["exports"],
    "x-wirebench-export": { step: "request", resourceField: style.resourceField(e), ...(x.since ? { sinceField: x.since.name } : {}) },
    requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: bodyProps, required: [style.resourceField(e)] } } } },
    responses: {
      "202": {
        ...job("The job, queued", { status: linkTo("get_export") }),
        headers: { Location: { description: "Absolute URL of the job's status.", schema: { type: "string", format: "uri" } } },
      },
      ...kit.commonErrors,
      "422": kit.errorResponse("The body names no export or an unknown one, or a filter that is not a timestamp; field errors listed"),
    },
  };
  const status: Json = {
    operationId: "get_export",
    summary: "Read an export job's status",
    description: "Each read counts as one poll: a job is ready after a fixed number of polls, not after a time.",
    tags: ["exports"],
    "x-wirebench-export": { step: "status", statusField: f.status, ready: "ready", downloadUrlField: f.downloadUrl },
    parameters: [JOB_ID],
    responses: { "200": job("The job", { download: linkTo("download_export") }), ...kit.commonErrors, "404": kit.errorResponse("No such export job") },
  };
  const limited = style.downloadLimit(e) !== null;
  const download: Json = {
    operationId: "download_export",
    summary: "Download an export's file",
    description: `The file as CSV: ${format.delimiter === "," ? "comma" : "semicolon"}-separated, ${format.bom ? "starting with a UTF-8 byte order mark" : "without a byte order mark"}, rows ended by ${format.lineEnding === "\r\n" ? "CRLF" : "LF"}, RFC 4180 quoting.`,
    tags: ["exports"],
    "x-wirebench-export": { step: "download", delimiter: format.delimiter, bom: format.bom, lineEnding: format.lineEnding },
    parameters: [JOB_ID],
    responses: {
      "200": {
        description: "The CSV file",
        headers: { "Content-Disposition": { description: "`attachment` with a file name.", schema: { type: "string" } } },
        content: { "text/csv": { schema: { type: "string" } } },
      },
      ...kit.commonErrors,
      "404": kit.errorResponse("No such export job"),
      "409": kit.errorResponse(`Not ready yet (\`${EXPORT_ERRORS.notReady}\`): poll the status until it is ready`),
      ...(limited ? { "410": kit.errorResponse(`The download link is spent (\`${EXPORT_ERRORS.expired}\`)`) } : {}),
    },
  };
  return [
    [toTemplate(routes.request), "post", request],
    [toTemplate(routes.status), "get", status],
    [toTemplate(routes.download), "get", download],
  ];
}
