/**
 * @module exports
 * Serves a vendor's export flow through its style: a request snapshots the
 * live records of the named export as CSV lines and queues a job; a status
 * read counts one poll and says where the job stands; a download of a ready
 * job writes the file. The routes are feeds the route table adds; nothing
 * here names a style.
 */
import type { Resource, Vendor } from "../../../declarations/schema/vendor.ts";
import { EXPORT_ERRORS, type ExportPhase, type Exportable, writeColumn } from "../../../mechanics/exports/define.ts";
import { exportStyle } from "../../../mechanics/exports/index.ts";
import { incrementalStyle } from "../../../mechanics/incremental/index.ts";
import { json, type Reply, text, vendorError } from "../../../mechanics/kit/reply.ts";
import { formatTime, vendorNow } from "../data/clock.ts";
import type { HandlerContext } from "../handler-context.ts";
import { type ExportJob, ExportJobStore } from "../store/export-jobs.ts";
import { csvFile, csvLine } from "./csv.ts";
import { readWatermark } from "./incremental.ts";
import { serializeRecord } from "./serialize.ts";

/** One route of the flow and the handler that serves it. */
export interface ExportRoute {
  method: "GET" | "POST";
  path: string;
  serve: (ctx: HandlerContext) => Reply;
}

/** The flow's routes, when the vendor declares exports. */
export function exportRoutes(vendor: Vendor): ExportRoute[] {
  const e = vendor.exports;
  if (!e) return [];
  const paths = exportStyle(e).routes(e);
  return [
    { method: "POST", path: paths.request, serve: requestExport },
    { method: "GET", path: paths.status, serve: exportStatus },
    { method: "GET", path: paths.download, serve: downloadExport },
  ];
}

function declared(vendor: Vendor) {
  const e = vendor.exports;
  if (!e) throw new Error("export route on a vendor that declares no exports");
  return { e, style: exportStyle(e) };
}

function jobs(ctx: HandlerContext): ExportJobStore {
  return new ExportJobStore(ctx.sql, ctx.config.epoch);
}

function invalid(ctx: HandlerContext, field: string, message: string): Reply {
  return vendorError(ctx.vendor, 422, "validation_failed", `${field} ${message}`, { [ctx.vendor.errors.fieldErrorsField]: [{ field, message }] });
}

/** The query that turns on every field a flag hides from lists: an export's columns are what it declares. */
function everyField(resource: Resource): URLSearchParams {
  const q = new URLSearchParams();
  for (const f of resource.fields) if (f.onlyWith) q.set(f.onlyWith.param, f.onlyWith.value);
  return q;
}

/** The snapshot: one CSV line per live record, of the wire values the JSON API serves to this request. */
function snapshot(ctx: HandlerContext, which: Exportable, delimiter: string, since: { ms: number; inclusive: boolean } | undefined): string[] {
  const { vendor, records, req } = ctx;
  const resource = vendor.resources.find((r) => r.name === which.resource)!;
  const filter = { entity: resource.name, includeDeleted: false, visibleTo: req.seq, since };
  const query = everyField(resource);
  return records.pageText(filter, 0, records.count(filter)).map((r) => {
    const wire = serializeRecord(vendor, resource, { id: r.id, data: JSON.parse(r.text) as Record<string, unknown>, deletedMs: null }, query);
    return csvLine(
      which.columns.map((c) => (c.written ? writeColumn(wire[c.field], c.written) : wire[c.field])),
      delimiter,
    );
  });
}

function url(ctx: HandlerContext, path: string, id: string): string {
  return `${ctx.baseUrl}${path.replace(":id", encodeURIComponent(id))}`;
}

/** A job as the status endpoints answer it, in the style's wire names. */
function jobBody(ctx: HandlerContext, job: ExportJob, phase: ExportPhase): Record<string, unknown> {
  const { e, style } = declared(ctx.vendor);
  const f = style.fields(e);
  const done = phase === "ready" || phase === "expired";
  const body: Record<string, unknown> = {
    [f.id]: job.id,
    [f.status]: phase,
    [f.resource]: job.exportName,
    [f.requestedAt]: job.requestedAt,
    [f.rowCount]: done ? job.rowCount : null,
    [f.downloadUrl]: phase === "ready" ? url(ctx, style.routes(e).download, job.id) : null,
  };
  const limit = style.downloadLimit(e);
  if (limit !== null) body[f.downloadsLeft] = Math.max(0, limit - job.downloads);
  return body;
}

/** `POST <request path>`: names an export (and, where it takes one, the incremental filter); `202` with the queued job. */
function requestExport(ctx: HandlerContext): Reply {
  const { vendor, req } = ctx;
  const { e, style } = declared(vendor);
  if (req.bodyInvalid) return vendorError(vendor, 400, "invalid_body", "request body must be a JSON object");
  const body = req.body ?? {};
  const field = style.resourceField(e);
  const exportables = style.exportables(e);
  const name = body[field];
  const which = exportables.find((x) => x.name === name);
  if (!which) return invalid(ctx, field, name === undefined || name === null || name === "" ? "is required" : `must be one of: ${exportables.map((x) => x.name).join(", ")}`);

  let since: { ms: number; inclusive: boolean } | undefined;
  const inc = vendor.incremental;
  const sinceField = inc ? incrementalStyle(inc).param(inc) : null;
  const rawSince = sinceField ? body[sinceField] : undefined;
  if (sinceField && rawSince !== undefined && rawSince !== null && rawSince !== "") {
    if (!which.incremental) return invalid(ctx, sinceField, `is not accepted by the ${which.name} export`);
    const wm = readWatermark(vendor, new URLSearchParams({ [sinceField]: String(rawSince) }));
    if (!wm.ok) return invalid(ctx, sinceField, wm.message.startsWith(`${sinceField} `) ? wm.message.slice(sinceField.length + 1) : wm.message);
    since = wm.since;
  }

  const clock = vendor.clock;
  const requestedAt = formatTime(vendorNow(clock, ctx.config.checkpoint, ctx.requestsInEpoch), clock.format, "", clock.zone);
  const job = jobs(ctx).create(which.name, requestedAt, snapshot(ctx, which, style.format(e).delimiter, since));
  return json(202, jobBody(ctx, job, style.phase(e, 0, 0)), { location: url(ctx, style.routes(e).status, job.id) });
}

function findJob(ctx: HandlerContext): { job: ExportJob } | { refusal: Reply } {
  const id = ctx.params.id;
  const job = jobs(ctx).get(id);
  return job ? { job } : { refusal: vendorError(ctx.vendor, 404, "not_found", `export job ${id} does not exist`) };
}

/** `GET <status path>`: one poll; where the job stands after it. */
function exportStatus(ctx: HandlerContext): Reply {
  const { e, style } = declared(ctx.vendor);
  const found = findJob(ctx);
  if ("refusal" in found) return found.refusal;
  // A HEAD asks without reading: it is no poll.
  const job = ctx.req.method === "GET" ? jobs(ctx).poll(found.job) : found.job;
  return json(200, jobBody(ctx, job, style.phase(e, job.polls, job.downloads)));
}

/** `GET <download path>`: the file of a ready job; `409` before, `410` once its downloads are spent. */
function downloadExport(ctx: HandlerContext): Reply {
  const { vendor, req } = ctx;
  const { e, style } = declared(vendor);
  const found = findJob(ctx);
  if ("refusal" in found) return found.refusal;
  let job = found.job;
  const phase = style.phase(e, job.polls, job.downloads);
  const routes = style.routes(e);
  if (phase === "expired") return vendorError(vendor, 410, EXPORT_ERRORS.expired, `the download link of export job ${job.id} has expired: request a new export`);
  const heldBy = phase === "ready" ? ctx.faults.holdsExportFile(job.exportName) : null;
  if (heldBy) ctx.notes.faults.push(heldBy);
  if (phase !== "ready" || heldBy) {
    const status = style.fields(e).status;
    return vendorError(vendor, 409, EXPORT_ERRORS.notReady, `export job ${job.id} is not ready: read GET ${routes.status.replace(":id", job.id)} until its ${status} is ready`);
  }
  if (req.method === "GET") job = jobs(ctx).downloaded(job);
  const exportable = style.exportables(e).find((x) => x.name === job.exportName)!;
  const file = csvFile(
    style.format(e),
    exportable.columns.map((c) => c.header),
    jobs(ctx).lines(job),
  );
  return text(200, file, "text/csv; charset=utf-8", { "content-disposition": `attachment; filename="${job.exportName}-${job.id}.csv"` });
}
