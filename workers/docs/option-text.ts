/**
 * @module option-text
 * What the documentation says about a write's optional behaviours and about
 * embedded child arrays, in one place for the pages and the OpenAPI document.
 */
import type { Write } from "../../declarations/schema/writes.ts";
import type { DocEmbed, DocModel, DocResource } from "./model.ts";
import { uploadStyle } from "../../mechanics/uploads/index.ts";

/** What an accepted write answers and how its change is confirmed. */
export function acceptedSentence(w: Write): string {
  const a = w.accepted!;
  const change = w.op === "update" ? "updated" : "created";
  return `The call answers \`202 Accepted\` with \`${a.requestIdField}\` and \`status: "pending"\`: the ${w.entity} is ${change} asynchronously, and until then no list or read shows it. The change is announced by the \`${w.entity}.${change}\` webhook, whose delivery carries the same \`${a.requestIdField}\` at its top level. Treat the 202 as pending, not as done.`;
}

/** Sentences a write's options add to its documentation. */
export function writeOptionSentences(w: Write): string[] {
  return [...(w.accepted ? [acceptedSentence(w)] : []), ...(w.upload ? uploadStyle(w.upload).docs.describe(w.upload) : [])];
}

/** What an embedded array holds, and what its flag says. */
export function embedTexts(m: DocModel, r: DocResource, e: DocEmbed): { field: string; flag?: string } {
  const child = m.resources.find((x) => x.name === e.entity);
  const plural = child?.plural.replace(/_/g, " ") ?? e.entity;
  const list = child?.list ? `\`GET ${child.list.path}\`` : `the ${plural} list`;
  return {
    field:
      e.limit !== undefined
        ? `The first ${e.limit} ${plural} of the ${r.name}, as ${list} serves them; the rest are only there (\`${e.flag}\` says whether there are more).`
        : `Every ${e.entity} of the ${r.name}, as ${list} serves them.`,
    ...(e.flag ? { flag: `Whether the ${r.name} has more ${plural} than \`${e.field}\` holds.` } : {}),
  };
}

/** What the webhooks page says about events that confirm accepted writes (nothing when there are none). */
export function acceptedEventSentences(m: DocModel): string[] {
  const accepted = m.writes.filter((w) => w.accepted);
  if (!accepted.length) return [];
  const list = accepted.map((w) => `\`${w.name}\` (\`${w.entity}.${w.op === "update" ? "updated" : "created"}\`, with \`${w.accepted!.requestIdField}\`)`).join(", ");
  const refusable = accepted.filter((w) => w.accepted!.refusedOp);
  return [
    `Some calls answer \`202 Accepted\` and take effect later: ${list}. The event announcing the change carries the call's request id at its top level, next to \`type\`; it is the confirmation that the change happened.`,
    "",
    ...(refusable.length
      ? [
          `An accepted call can still be turned down when its turn comes: ${refusable
            .map((w) => `\`${w.name}\` (\`${w.entity}.${w.accepted!.refusedOp}\`)`)
            .join(
              ", ",
            )}. Nothing changes then, and instead of the confirmation the refusal event is pushed, with the call's request id at its top level and an \`error\` object beside it (\`code\`, and \`message\` saying why, in words you can show to people); \`data\` is the record as it still is. A refused call is final: sending it again under its Idempotency-Key only returns the stored \`202\`.`,
          "",
        ]
      : []),
  ];
}
