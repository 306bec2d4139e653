/**
 * @module openapi-write-options
 * The OpenAPI side of a write's optional behaviours and of embedded child
 * arrays: an accepted write's 202, an upload's request body and statuses,
 * an embed's array and flag properties.
 */
import type { Write } from "../../declarations/schema/writes.ts";
import type { DocModel, DocResource } from "./model.ts";
import { uploadRoute, uploadStyle } from "../../mechanics/uploads/index.ts";
import { embedTexts, writeOptionSentences } from "./option-text.ts";

type Json = Record<string, unknown>;

/** What a write's options add to its operation: responses, the request body content, a description. */
export function writeOptionDocs(w: Write, ok: string, body: Json, errorResponse: (description: string) => Json): { responses: Json; content: Json; description?: string } {
  const responses: Json = {};
  if (w.accepted) {
    const field = w.accepted.requestIdField;
    responses[ok] = {
      description: "Accepted: the change is applied later and announced by a webhook",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { [field]: { type: "string", description: "Id of the request, repeated in the webhook event that confirms it" }, status: { type: "string", const: "pending" } },
            required: [field, "status"],
          },
        },
      },
    };
  }
  let content: Json = { "application/json": { schema: body } };
  if (w.upload) {
    const style = uploadStyle(w.upload);
    content = style.docs.requestContent(w.upload, { properties: (body.properties ?? {}) as Json, required: (body.required ?? []) as string[] });
    for (const [status, text] of Object.entries(style.docs.statuses(w.upload))) responses[status] = errorResponse(text);
  }
  const notes = writeOptionSentences(w);
  return { responses, content, ...(notes.length ? { description: `${w.description}\n\n${notes.join("\n\n")}` } : {}) };
}

/** Schema properties of a resource's embedded arrays and their truncation flags. */
export function embedProperties(m: DocModel, r: DocResource): Json {
  const out: Json = {};
  for (const e of r.embeds) {
    const text = embedTexts(m, r, e);
    out[e.field] = { type: "array", items: { $ref: `#/components/schemas/${e.entity}` }, ...(e.limit !== undefined ? { maxItems: e.limit } : {}), description: text.field };
    if (e.flag) out[e.flag] = { type: "boolean", description: text.flag };
  }
  return out;
}

/** The operations of the later requests uploads take (`PUT <upload URL>`): `[path, method, operation]`, without security. */
export function uploadOperations(m: DocModel, kit: { commonErrors: Json; errorResponse: (description: string) => Json }): [string, string, Json][] {
  const out: [string, string, Json][] = [];
  for (const w of m.writes) {
    const route = w.upload ? uploadRoute(w.upload) : null;
    const docs = w.upload ? uploadStyle(w.upload).docs.route?.(w.upload) : undefined;
    if (!route || !docs) continue;
    const plural = m.resources.find((r) => r.name === w.entity)!.plural;
    const op: Json = {
      operationId: `${w.name}_upload`,
      summary: docs.summary,
      description: writeOptionSentences(w).join("\n\n"),
      tags: [plural],
      parameters: [
        {
          name: "token",
          in: "path",
          required: true,
          description: `Names the upload; only the URL \`${w.name}\` answered with holds a valid one.`,
          schema: { type: "string" },
          "x-wirebench-flow": "upload",
        },
      ],
      requestBody: { required: true, content: Object.fromEntries(docs.bodyTypes.map((t) => [t, { schema: { type: "string", contentMediaType: t } }])) },
      responses: {
        "200": { description: `The ${w.entity}, with the upload recorded`, content: { "application/json": { schema: { $ref: `#/components/schemas/${w.entity}` } } } },
        ...kit.commonErrors,
        "404": kit.errorResponse("No upload is waiting at this URL"),
        ...Object.fromEntries(Object.entries(docs.statuses).map(([status, text]) => [status, kit.errorResponse(text)])),
      },
    };
    out.push([route.path, route.method.toLowerCase(), op]);
  }
  return out;
}
