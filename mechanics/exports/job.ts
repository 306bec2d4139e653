/**
 * @module exports/job
 * An export job: `POST` names what to export and answers `202` with a queued
 * job; the job answers `running` to a declared number of status reads and
 * `ready` (with an absolute download URL) to the next; the download serves a
 * snapshot of the records as they were when the export was requested, as one
 * CSV file. A declared download limit expires the link.
 */
import { z } from "zod";
import { defineExports, EXPORT_ERRORS, type JobFields } from "./define.ts";

const Column = z.object({
  /** Header the column is written under (unique within its export). */
  header: z.string().min(1),
  /** Record field whose wire value the column holds (as the JSON API serves it). */
  field: z.string(),
  /** How a timestamp column is written when not as the API writes it: `dmy` is `DD/MM/YYYY HH:MM:SS` in UTC. Absent: as the API writes it. */
  written: z.enum(["dmy"]).optional(),
});

const Exportable = z.object({
  /** Name a client sends in the request body to run this export (`candidates`). */
  name: z.string().regex(/^[a-z][a-z_]*$/),
  /** Entity whose live records are exported, one row each. */
  resource: z.string(),
  /** Whether the request may carry the vendor's incremental filter (the resource must honour it). */
  incremental: z.boolean().default(false),
  /** Columns of the file, in order. */
  columns: z.array(Column).min(1),
});

const schema = z.object({
  style: z.literal("job"),
  /** `POST` path that requests an export; answered `202` with a queued job. */
  requestPath: z.string().startsWith("/"),
  /** `GET` path with `:id`: the job's status. */
  statusPath: z.string().startsWith("/"),
  /** `GET` path with `:id`: the job's file. */
  downloadPath: z.string().startsWith("/"),
  /** Status reads a job answers `running` before it is ready: the one after them answers `ready`. Counted in requests, never in time. */
  pollsUntilReady: z.number().int().nonnegative(),
  /** Field separator of the file. */
  delimiter: z.enum([",", ";"]),
  /** Whether the file starts with a UTF-8 byte order mark. */
  bom: z.boolean().default(false),
  /** What ends every row, the last one included: `crlf` (RFC 4180) or `lf`. */
  lineEnding: z.enum(["crlf", "lf"]).default("crlf"),
  /** Downloads a job allows before its link expires (`410`); absent when the link never expires. */
  expiresAfterDownloads: z.number().int().positive().optional(),
  /** Casing of a job's wire fields: `snake` (`download_url`) or `camel` (`downloadUrl`). */
  casing: z.enum(["snake", "camel"]).default("snake"),
  /** What can be exported. */
  resources: z.array(Exportable).min(1),
});

const SNAKE: JobFields = {
  id: "id",
  status: "status",
  resource: "resource",
  requestedAt: "requested_at",
  rowCount: "row_count",
  downloadUrl: "download_url",
  downloadsLeft: "downloads_left",
};
const CAMEL: JobFields = { id: "id", status: "status", resource: "resource", requestedAt: "requestedAt", rowCount: "rowCount", downloadUrl: "downloadUrl", downloadsLeft: "downloadsLeft" };

export const jobExports = defineExports({
  schema,
  routes: (e) => ({ request: e.requestPath, status: e.statusPath, download: e.downloadPath }),
  exportables: (e) => e.resources,
  format: (e) => ({ delimiter: e.delimiter, bom: e.bom, lineEnding: e.lineEnding === "crlf" ? "\r\n" : "\n" }),
  resourceField: () => "resource",
  phase(e, polls, downloads) {
    if (polls === 0) return "queued";
    if (polls <= e.pollsUntilReady) return "running";
    return e.expiresAfterDownloads !== undefined && downloads >= e.expiresAfterDownloads ? "expired" : "ready";
  },
  downloadLimit: (e) => e.expiresAfterDownloads ?? null,
  fields: (e) => (e.casing === "camel" ? CAMEL : SNAKE),
  check(e, v, issue) {
    if (!e.statusPath.includes(":id")) issue(["statusPath"], "a status path needs :id");
    if (!e.downloadPath.includes(":id")) issue(["downloadPath"], "a download path needs :id");
    if (e.requestPath.includes(":")) issue(["requestPath"], "a request path takes no parameters");
    const names = new Set<string>();
    e.resources.forEach((x, i) => {
      if (names.has(x.name)) issue(["resources", i, "name"], `duplicate export "${x.name}"`);
      names.add(x.name);
      const r = v.resources.find((y) => y.name === x.resource);
      if (!r) return issue(["resources", i, "resource"], `unknown entity "${x.resource}"`);
      if (x.incremental && !(r.incremental && v.incremental)) issue(["resources", i, "incremental"], `"${x.resource}" does not honour an incremental filter`);
      const headers = new Set<string>();
      x.columns.forEach((c, j) => {
        if (headers.has(c.header)) issue(["resources", i, "columns", j, "header"], `duplicate column "${c.header}"`);
        headers.add(c.header);
        const f = r.fields.find((y) => y.name === c.field);
        if (!f) issue(["resources", i, "columns", j, "field"], `"${x.resource}" has no field "${c.field}"`);
        else if (c.written && f.type !== "timestamp") issue(["resources", i, "columns", j, "written"], `"${c.field}" is no timestamp: only a timestamp column is written another way`);
      });
    });
  },
  docs: {
    flow(e, since) {
      const f = e.casing === "camel" ? CAMEL : SNAKE;
      const polls =
        e.pollsUntilReady === 0
          ? "The first status read answers `ready`"
          : `A job answers \`running\` to its first ${e.pollsUntilReady} status read${e.pollsUntilReady === 1 ? "" : "s"} and \`ready\` to the next one`;
      const expiry =
        e.expiresAfterDownloads === undefined
          ? "The download link does not expire: the file can be downloaded again as often as needed."
          : `The link allows ${e.expiresAfterDownloads} download${e.expiresAfterDownloads === 1 ? "" : "s"} (\`${f.downloadsLeft}\` counts what is left); after that the job is \`expired\` and the download answers \`410\` with code \`${EXPORT_ERRORS.expired}\`. Request a new export to get the file again.`;
      return [
        `1. **Request** an export: \`POST ${e.requestPath}\` with a JSON body naming it, \`{"resource": "<name>"}\`${since ? `, and optionally \`"${since}"\` to export only the records changed since then (in the vendor's timestamp format)` : ""}. The answer is \`202 Accepted\` with the job, \`${f.status}: queued\`, and a \`Location\` header with its status URL.`,
        `2. **Poll** \`GET ${e.statusPath}\`. ${polls}, which carries \`${f.downloadUrl}\`, the absolute URL of the file. Readiness is counted in status reads, not in time: waiting longer between reads does not make a job ready sooner.`,
        `3. **Download** \`GET ${e.downloadPath}\`. Before the job is ready the download answers \`409\` with code \`${EXPORT_ERRORS.notReady}\`. ${expiry}`,
        "The file is a snapshot of the live records at the moment the export was requested: records created, changed or deleted later do not show in it.",
      ];
    },
  },
});
