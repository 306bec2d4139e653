/**
 * @module uploads/upload-url
 * Two steps: the create call (JSON) names the file and answers with an
 * upload URL on the vendor host; the client then PUTs the raw bytes there.
 * Until it does, the record says it is waiting; afterwards it holds the
 * size and SHA-256 of the bytes received.
 */
import { z } from "zod";
import { checkFields, defineUpload, digestValues, mediaType, refuse, sizeProblem, uploadCommon } from "./define.ts";

const schema = z.object({
  style: z.literal("upload-url"),
  /** Where the bytes are sent (`PUT`); `:token` names the upload and is handed out in `urlField`. */
  path: z
    .string()
    .startsWith("/")
    .refine((p) => p.includes(":token"), "the upload path needs :token"),
  /** Record field holding the URL to send the bytes to; null once they have arrived. */
  urlField: z.string(),
  /** Record field holding the upload's state: `pending` until the bytes arrive, then `done`. */
  status: z.object({
    /** The record field. */
    field: z.string(),
    /** Its value from the create call until the bytes arrive (`pending_upload`). */
    pending: z.string(),
    /** Its value once they have (`uploaded`). */
    done: z.string(),
  }),
  ...uploadCommon,
});

export const uploadUrl = defineUpload({
  schema,
  check(u, refs, issue) {
    checkFields(u.fields, refs, issue);
    for (const [key, name] of [
      ["urlField", u.urlField],
      ["status", u.status.field],
    ] as const)
      if (!refs.entity.fields.some((f) => f.name === name)) issue(["upload", key], `"${refs.entity.name}" has no field "${name}"`);
    if (refs.write.op !== "create") issue(["upload", "style"], "an upload URL is handed out by a create");
    const named = refs.write.inputs.find((i) => i.name === u.fields.filename);
    if (!named?.required) issue(["inputs"], `the create call must require "${u.fields.filename}"`);
    const typed = refs.write.inputs.find((i) => i.name === u.fields.contentType);
    if (!typed?.required || !typed.oneOf) issue(["inputs"], `the create call must require "${u.fields.contentType}", one of the accepted types`);
    else for (const t of typed.oneOf) if (!u.accept.includes(t)) issue(["inputs"], `"${t}" is offered but not accepted`);
  },
  readCreate(_u, body) {
    if (!body.json) return refuse(400, "invalid_body", "request body must be a JSON object");
    return { inputs: body.json, file: null };
  },
  createdValues: (u, made) => ({ [u.urlField]: made.url, [u.status.field]: u.status.pending, [u.fields.size]: null, [u.fields.sha256]: null }),
  route: (u) => ({ method: "PUT", path: u.path }),
  receive(u, record, body) {
    if (record[u.status.field] !== u.status.pending) return refuse(409, "already_uploaded", `the file was already uploaded (${u.status.field} is ${String(record[u.status.field])})`);
    const declared = String(record[u.fields.contentType]);
    const sent = mediaType(body.contentType);
    if (sent !== declared) return refuse(415, "unsupported_media_type", `Content-Type must be ${declared}, the ${u.fields.contentType} given when the upload was created (it was ${sent || "absent"})`);
    const size = sizeProblem(u.maxBytes, body.bytes);
    if (size) return size;
    return { ...digestValues(u.fields, body.bytes), [u.status.field]: u.status.done, [u.urlField]: null };
  },
  docs: {
    describe: (u) => [
      `The file is sent in a second step. The response carries \`${u.urlField}\`, a URL on this API's host: \`PUT\` the file's raw bytes there, with the \`Content-Type\` you gave as \`${u.fields.contentType}\` and your usual credentials. Files up to ${u.maxBytes} bytes are accepted.`,
      `Until the bytes arrive the record's \`${u.status.field}\` is \`${u.status.pending}\`; the \`PUT\` answers with the record, now \`${u.status.done}\`, with \`${u.fields.size}\` and \`${u.fields.sha256}\` (SHA-256, hex) of the bytes received, and \`${u.urlField}\` null. A larger file answers \`413\`, another Content-Type \`415\`, an empty body \`422\`, a second upload \`409\`.`,
    ],
    requestContent: (_u, inputs) => ({ "application/json": { schema: { type: "object", ...inputs } } }),
    statuses: () => ({}),
    filled: (u) => [u.urlField, u.status.field],
    route: (u) => ({
      summary: `Upload the file's bytes to the \`${u.urlField}\` a create call handed out`,
      bodyTypes: u.accept,
      statuses: {
        "409": "The file was already uploaded",
        "413": `The file is larger than ${u.maxBytes} bytes`,
        "415": `The Content-Type is not the \`${u.fields.contentType}\` the upload was created with`,
        "422": "The body is empty",
      },
    }),
  },
});
