/**
 * @module exports/define
 * The shape of an export style: a bulk export a client requests, polls until
 * it is ready and then downloads as one CSV file. A style owns its
 * declaration (the three endpoints, the exportable resources and their
 * columns, the file format), the job's lifecycle counted in requests, and the
 * wire names of a job; the engine stores the jobs, snapshots the rows and
 * writes the file. One module per style; `exports/index.ts` lists them.
 */
import type { z } from "zod";

/** Where a job stands: requested, being prepared, downloadable, or spent. */
export type ExportPhase = "queued" | "running" | "ready" | "expired";

/** Error codes of the flow's refusals, the same for every style. */
export const EXPORT_ERRORS = {
  /** A download of a job that is not ready yet (`409`). */
  notReady: "export_not_ready",
  /** A download of a job whose link is spent (`410`). */
  expired: "export_expired",
} as const;

/** One column of an exported file. */
export interface ExportColumn {
  /** Header the column is written under. */
  header: string;
  /** Record field whose wire value the column holds. */
  field: string;
  /** How a timestamp column is written, when not as the API writes it (`dmy`: `DD/MM/YYYY HH:MM:SS` in UTC). */
  written?: ColumnWriting;
}

/** Ways an export may write a timestamp column other than as the JSON API does. */
export type ColumnWriting = "dmy";

/** What each way of writing looks like, for the docs: the pattern and an example. */
export const COLUMN_WRITINGS: Record<ColumnWriting, { pattern: string; describe: string }> = {
  dmy: {
    pattern: "DD/MM/YYYY HH:MM:SS",
    describe: "written day first as `DD/MM/YYYY HH:MM:SS`, in UTC, to the second (`07/03/2025 14:05:09` is 7 March 2025, 14:05:09 UTC)",
  },
};

/**
 * The text of a timestamp column written its declared way, from the instant
 * the JSON API serves (anything `Date.parse` reads as the API writes it, or
 * epoch seconds or milliseconds); the wire value as it is when it is no instant.
 */
export function writeColumn(value: unknown, written: ColumnWriting): unknown {
  const ms = typeof value === "number" ? (value < 1e11 ? value * 1000 : value) : typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) return value;
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  switch (written) {
    case "dmy":
      return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  }
}

/** One export a client may request. */
export interface Exportable {
  /** Name the client sends to request it. */
  name: string;
  /** Entity whose live records become the rows. */
  resource: string;
  /** Whether the request may carry the vendor's incremental filter. */
  incremental: boolean;
  /** The file's columns, in order. */
  columns: ExportColumn[];
}

/** How a downloaded file is written. */
export interface CsvFormat {
  /** Separates the fields of a row. */
  delimiter: string;
  /** Whether the file starts with a UTF-8 byte order mark. */
  bom: boolean;
  /** Ends every row, the last one included. */
  lineEnding: "\r\n" | "\n";
}

/** The paths of the flow, as declared (`:id` names the job). */
export interface ExportRoutes {
  /** `POST`: requests an export. */
  request: string;
  /** `GET`: a job's status. */
  status: string;
  /** `GET`: the job's file. */
  download: string;
}

/** Wire names of a job's fields, in the vendor's own casing. */
export interface JobFields {
  id: string;
  status: string;
  resource: string;
  requestedAt: string;
  rowCount: string;
  downloadUrl: string;
  downloadsLeft: string;
}

/** The parts of a declaration export checks read (structural: declarations import this module). */
export interface ExportRefs {
  resources: { name: string; incremental: boolean; fields: { name: string; type: string }[] }[];
  incremental?: { style: string };
}

/** Records a problem at `path` (relative to the vendor's `exports`). */
export type ExportIssueFn = (path: (string | number)[], message: string) => void;

export interface ExportStyle<S extends z.ZodObject = z.ZodObject, E = z.infer<S>> {
  schema: S;
  routes(e: E): ExportRoutes;
  exportables(e: E): Exportable[];
  format(e: E): CsvFormat;
  /** Body field naming the export to run. */
  resourceField(e: E): string;
  /**
   * Where a job stands after `polls` reads of its status and `downloads`
   * downloads: counted in requests, never in time, so a verdict cannot depend
   * on how fast a client is.
   */
  phase(e: E, polls: number, downloads: number): ExportPhase;
  /** Downloads a job allows in all, or null for no limit. */
  downloadLimit(e: E): number | null;
  fields(e: E): JobFields;
  /** Checks the style against the rest of the declaration (routes are claimed generically). */
  check?(e: E, v: ExportRefs, issue: ExportIssueFn): void;
  docs: {
    /** How the flow goes, as Markdown paragraphs; `since` is the incremental body field, if any export takes it. */
    flow(e: E, since: string | null): string[];
  };
}

export function defineExports<S extends z.ZodObject>(style: ExportStyle<S>): ExportStyle<S> {
  return style;
}

export function exportStyleOf(s: ExportStyle): string {
  return (s.schema.shape.style as z.ZodLiteral<string>).value;
}
