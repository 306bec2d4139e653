import { signatureScheme } from "../../../mechanics/signatures/index.ts";
import type { DocModel } from "../model.ts";
import { code, table, withArticle } from "./helpers.ts";
import { acceptedEventSentences } from "../option-text.ts";

/** How long an unacknowledged event is retried under the ack-body protocol before it is dead-lettered. */
function ackRetries(w: NonNullable<DocModel["webhooks"]>): string {
  const max = w.ack?.maxAttempts;
  if (!max || max > w.retrySchedule.length) return "the last retry";
  return max === 1
    ? "the first attempt (no retry)"
    : `${max} attempts (the first, then ${w.retrySchedule
        .slice(0, max - 1)
        .map((s) => `${s} s`)
        .join(", then ")} later)`;
}

/** The test-delivery route, as `webhooks.testDelivery` declares it. */
function testDeliverySection(w: NonNullable<DocModel["webhooks"]>, types: string[], refusalTypes: string[]): string[] {
  const t = w.testDelivery!;
  return [
    "## Sending a test event",
    "",
    `\`POST ${t.path}\` with \`${JSON.stringify({ [t.typeField]: types[0] })}\` (any event type in the table above), authenticated like every other call, delivers one event of that type now, to the endpoint set up for your account's deliveries${w.subscriptionPath ? ` (a URL sent to \`POST ${w.subscriptionPath}\` is recorded, but deliveries do not go to it)` : ""}. It is a real event built from a record of your account: a \`.created\` or \`.updated\` event carries the first record of its kind, and a \`.deleted\` event names the first deleted one (the first record when none is deleted)${refusalTypes.length ? `; ${refusalTypes.map((x) => `\`${x}\``).join(", ")} carries the first record of its kind, a request id numbered 000000 and a sample \`error\`` : ""}. It takes the next event id and is signed, retried${w.ack ? ", acknowledged and dead-lettered" : " and acknowledged"} exactly like any other event.`,
    "",
    table(
      ["status", "when"],
      [
        ["`202`", "the event is queued for delivery: the body has its `id` and `type`"],
        ["`400`", "the body is not a JSON object"],
        ["`422`", `\`${t.typeField}\` is missing or is not one of the event types above`],
        ["`409`", "no endpoint is set up for your account's deliveries, or there is no record of that kind yet"],
      ],
    ),
    "",
  ];
}

/** `webhooks.md`: events, envelope, signatures, retries. */
export function webhooksPage(m: DocModel): string {
  const w = m.webhooks!;
  const types = w.entities.flatMap((e) => [`${e}.created`, `${e}.updated`, `${e}.deleted`]);
  const refusing = m.writes.filter((x) => x.accepted?.refusedOp && w.entities.includes(x.entity));
  const refusalTypes = refusing.map((x) => `${x.entity}.${x.accepted!.refusedOp}`);
  const lines = [
    "# Webhooks",
    "",
    `${m.vendor.name} POSTs an event to your endpoint when a ${w.entities.join(" or ")} changes.`,
    "",
    table(
      ["event", "when"],
      [
        ...types.map((t) => [`\`${t}\``, `${withArticle(t.split(".")[0])} was ${t.split(".")[1]}`]),
        ...refusing.map((x) => [`\`${x.entity}.${x.accepted!.refusedOp}\``, `an accepted \`${x.name}\` call was turned down; the ${x.entity} is unchanged`]),
      ],
    ),
    "",
    "Each delivery is JSON:",
    "",
    code("json", JSON.stringify({ id: "evt_00001", type: types[0], created_at: "...", data: w.payload === "full" ? { id: "...", "...": "..." } : { id: "..." } }, null, 2)),
    "",
    w.payload === "full" ? "`data` is the record as the API returns it." : "`data` carries only the record's id: fetch the record for its content.",
    "",
    ...acceptedEventSentences(m),
    "## Verifying deliveries",
    "",
    ...signatureScheme(w.signature).docs(w.signature),
    "",
    signatureScheme(w.signature).timestamped === false
      ? "Refuse deliveries whose signature does not match."
      : `Refuse deliveries whose signature does not match or whose timestamp is more than ${w.maxSkewS} s away from your clock.`,
    "",
    "## Retries",
    "",
    `${w.ack ? `${m.ackFrom ? `Until ${m.ackFrom}, answer 2xx to acknowledge. From ${m.ackFrom}, answer` : "Answer"} 2xx with a JSON body whose \`${w.ack.field}\` is the event id to acknowledge` : "Answer 2xx to acknowledge"}. Otherwise, or when your endpoint does not answer, the delivery is retried after ${w.retrySchedule.map((s) => `${s} s`).join(", then ")}. The same event can arrive more than once, and events can arrive out of order.`,
    "",
  ];
  if (w.ack)
    lines.push(
      `A 2xx without that body is not an acknowledgement and is retried. Events still unacknowledged after ${ackRetries(w)} go to a dead-letter queue: \`GET ${w.ack.deadLetterPath}\` returns each of them once, in \`data\`.`,
      "",
    );
  if (w.testDelivery) lines.push(...testDeliverySection(w, types, refusalTypes));
  if (w.subscriptionPath) lines.push("## Subscribing", "", `Register your endpoint with \`POST ${w.subscriptionPath}\` and \`{"url": "https://..."}\`.`, "");
  return lines.join("\n");
}
