/**
 * @module exports-page
 * `exports.md`: the export flow (request, poll, download), the job's fields,
 * the file format (delimiter, byte order mark, quoting, line endings) and a
 * column reference per exportable resource. Reads only the model's exports,
 * which no lie changes.
 */
import type { DocExports } from "../../../mechanics/exports/doc-model.ts";
import { EXPORT_ERRORS } from "../../../mechanics/exports/define.ts";
import { exportStyle } from "../../../mechanics/exports/index.ts";
import type { DocModel } from "../model.ts";
import { link, table } from "./helpers.ts";

const DELIMITER_NAMES: Record<string, string> = { ",": "comma", ";": "semicolon" };

function jobFieldRows(x: DocExports): string[][] {
  const e = x.declaration;
  const style = exportStyle(e);
  const f = style.fields(e);
  const rows = [
    [f.id, "The job's id, for the status and download paths."],
    [f.status, `\`queued\`, \`running\`, \`ready\`${style.downloadLimit(e) === null ? "" : " or `expired`"}.`],
    [f.resource, "The export the job runs."],
    [f.requestedAt, "When the export was requested: the moment of the snapshot."],
    [f.rowCount, "Rows in the file (records, not counting the header); null until the job is ready."],
    [f.downloadUrl, "Absolute URL of the file; null until the job is ready."],
  ];
  if (style.downloadLimit(e) !== null) rows.push([f.downloadsLeft, "Downloads the link still allows."]);
  return rows.map(([name, what]) => [`\`${name}\``, what]);
}

function formatLines(x: DocExports): string[] {
  const e = x.declaration;
  const format = exportStyle(e).format(e);
  const ending = format.lineEnding === "\r\n" ? "CRLF (`\\r\\n`)" : "LF (`\\n`)";
  return [
    "- Content type `text/csv; charset=utf-8`, UTF-8 encoded.",
    `- Fields are separated by a ${DELIMITER_NAMES[format.delimiter] ?? "delimiter"} (\`${format.delimiter}\`).`,
    format.bom
      ? "- The file starts with a UTF-8 byte order mark (bytes `EF BB BF`) before the header row: strip it before reading the first column's name."
      : "- The file has no byte order mark: its first bytes are the first column's name.",
    `- Every row, the last one included, ends with ${ending}.`,
    "- The first row holds the column headers of the export's column reference below, in that order; then one row per record.",
    `- Quoting follows RFC 4180: a value that contains the delimiter, a double quote, a CR or an LF is enclosed in double quotes, and every double quote inside it is doubled (\`"\` is written \`""\`). Other values are written as they are, unquoted.`,
    x.exports.some((ex) => ex.columns.some((c) => c.written))
      ? "- Values are the ones the JSON API serves: ids and timestamps in the same format, booleans as `true` or `false`, numbers as digits, except the timestamp columns the column reference below marks with another pattern, which are written as it says. A null value is an empty field."
      : "- Values are the ones the JSON API serves: ids and timestamps in the same format, booleans as `true` or `false`, numbers as digits. A null value is an empty field.",
    "- Deleted records are not exported.",
  ];
}

/** `exports.md`. */
export function exportsPage(m: DocModel): string {
  const x = m.exports!;
  const e = x.declaration;
  const style = exportStyle(e);
  const lines = [
    "# Exports",
    "",
    `${m.vendor.name} exports every live record of a resource as one CSV file: request an export, poll the job until it is ready, then download the file. Exports take the same credentials as every other endpoint (see ${link("Authentication", "authentication")}) and count against the same quotas.`,
    "",
    "## The flow",
    "",
    ...style.docs.flow(e, x.since?.name ?? null).flatMap((p) => [p, ""]),
  ];
  if (x.since) lines.push(`\`${x.since.name}\`: ${x.since.description} Only the exports marked below accept it.`, "");
  lines.push("## Job fields", "", table(["field", "meaning"], jobFieldRows(x)), "", "## Errors", "", "Refusals use the usual error body (see the Errors page).", "");
  lines.push(
    table(
      ["status", "code", "when"],
      [
        ["400", "`invalid_body`", "the body is not a JSON object"],
        ["404", "`not_found`", "no export job has this id"],
        ["409", `\`${EXPORT_ERRORS.notReady}\``, "the download was asked for before the job is ready"],
        ...(style.downloadLimit(e) === null ? [] : [["410", `\`${EXPORT_ERRORS.expired}\``, "the job's downloads are spent"]]),
        [
          "422",
          "`validation_failed`",
          `the body names no export or an unknown one${x.since ? `, or \`${x.since.name}\` is not a timestamp or not accepted by that export` : ""}; the field errors name the field`,
        ],
      ],
    ),
    "",
    "## File format",
    "",
    ...formatLines(x),
    "",
    "## Column reference",
    "",
  );
  for (const ex of x.exports) {
    lines.push(
      `### \`${ex.name}\``,
      "",
      `One row per live ${link(ex.entity.replace(/_/g, " "), `resource-${ex.plural.replace(/_/g, "-")}`)}.${ex.incremental && x.since ? ` Accepts \`${x.since.name}\`.` : ""}`,
      "",
      table(
        ["column", "field", "type", "description"],
        ex.columns.map((c) => [
          c.header,
          `\`${c.field}\``,
          c.written ? `${c.type} (${c.written.pattern})` : c.type,
          `${c.description}${c.written ? ` In this file ${c.written.describe}, not as the API writes it.` : ""}${c.nullable ? " Empty when null." : ""}`,
        ]),
      ),
      "",
    );
  }
  return lines.join("\n");
}
