/**
 * @module uploads/multipart
 * The file comes with the create call, as one part of a
 * `multipart/form-data` body; the form's other parts are the write's inputs.
 * The created record holds the file's name, media type, size and SHA-256.
 */
import { z } from "zod";
import { boundaryOf, isFormData, parseMultipart } from "../kit/multipart.ts";
import { checkFields, defineUpload, digestValues, mediaType, refuse, sizeProblem, uploadCommon } from "./define.ts";

const schema = z.object({
  style: z.literal("multipart"),
  /** Name of the form part holding the file. */
  part: z.string().min(1).default("file"),
  ...uploadCommon,
});

export const multipartUpload = defineUpload({
  schema,
  check(u, refs, issue) {
    checkFields(u.fields, refs, issue);
    if (refs.write.op !== "create") issue(["upload", "style"], "a multipart upload creates a record");
    refs.write.inputs.forEach((i, j) => {
      if (i.type !== "string") issue(["inputs", j, "type"], "form fields arrive as text: multipart inputs must be strings");
      if (i.name === u.part) issue(["upload", "part"], `"${u.part}" is both the file part and an input`);
    });
  },
  readCreate(u, body) {
    if (!isFormData(body.contentType))
      return refuse(415, "unsupported_media_type", `send multipart/form-data with the file in a part named "${u.part}" (Content-Type was ${body.contentType || "absent"})`);
    const boundary = boundaryOf(body.contentType);
    if (!boundary) return refuse(400, "invalid_body", "the multipart/form-data Content-Type has no boundary");
    const form = parseMultipart(body.bytes, boundary);
    if ("error" in form) return refuse(400, "invalid_body", `the multipart body could not be read: ${form.error}`);
    const inputs: Record<string, unknown> = {};
    const decoder = new TextDecoder("utf-8");
    for (const p of form.parts) if (p.filename === null && p.name !== u.part && !(p.name in inputs)) inputs[p.name] = decoder.decode(p.bytes);
    const file = form.parts.find((p) => p.name === u.part && p.filename !== null);
    if (!file) {
      const asField = form.parts.some((p) => p.name === u.part);
      return refuse(422, "validation_failed", asField ? `part "${u.part}" must be a file (its Content-Disposition needs a filename)` : `a file part named "${u.part}" is required`, u.part);
    }
    if (!file.filename!.trim()) return refuse(422, "validation_failed", `the "${u.part}" part needs a filename`, u.part);
    const type = mediaType(file.contentType ?? "application/octet-stream");
    if (!u.accept.includes(type)) return refuse(415, "unsupported_media_type", `files of type ${type} are not accepted; send one of ${u.accept.join(", ")}`, u.part);
    const size = sizeProblem(u.maxBytes, file.bytes, u.part);
    if (size) return size;
    return { inputs, file: { filename: file.filename!, contentType: type, bytes: file.bytes } };
  },
  createdValues(u, made) {
    const f = made.file!;
    return { [u.fields.filename]: f.filename, [u.fields.contentType]: f.contentType, ...digestValues(u.fields, f.bytes) };
  },
  docs: {
    describe: (u) => [
      `Send the request as \`multipart/form-data\`: the file in a part named \`${u.part}\` (with a filename and the file's own \`Content-Type\`), and the other fields as plain parts. Files up to ${u.maxBytes} bytes of type ${u.accept.map((a) => `\`${a}\``).join(", ")} are accepted.`,
      `The response holds the filename, type, \`${u.fields.size}\` and \`${u.fields.sha256}\` (SHA-256, hex) of the bytes received: compare them with the file you sent. A larger file answers \`413\`, another type or a body that is not \`multipart/form-data\` \`415\`, a missing file part \`422\`.`,
    ],
    requestContent: (u, inputs) => ({
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: { [u.part]: { type: "string", contentMediaType: "application/octet-stream", description: `The file, at most ${u.maxBytes} bytes.` }, ...inputs.properties },
          required: [u.part, ...inputs.required],
        },
        encoding: { [u.part]: { contentType: u.accept.join(", ") } },
      },
    }),
    statuses: (u) => ({ "413": `The file is larger than ${u.maxBytes} bytes`, "415": "The body is not multipart/form-data, or the file's type is not accepted" }),
    filled: (u) => Object.values(u.fields),
  },
});
