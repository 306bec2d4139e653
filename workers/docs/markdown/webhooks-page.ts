import { signatureScheme } from "../../../mechanics/signatures/index.ts";
import type { DocModel } from "../../../mechanics/kit/doc-model.ts";
import { code, table, withArticle } from "./helpers.ts";

/** `webhooks.md`: events, envelope, signatures, retries. */
export function webhooksPage(m: DocModel): string {
  const w = m.webhooks!;
  const types = w.entities.flatMap((e) => [`${e}.created`, `${e}.updated`, `${e}.deleted`]);
  const lines = [
    "# Webhooks",
    "",
    `${m.vendor.name} POSTs an event to your endpoint when a ${w.entities.join(" or ")} changes.`,
    "",
    table(
      ["event", "when"],
      types.map((t) => [`\`${t}\``, `${withArticle(t.split(".")[0])} was ${t.split(".")[1]}`]),
    ),
    "",
    "Each delivery is JSON:",
    "",
    code("json", JSON.stringify({ id: "evt_00001", type: types[0], created_at: "...", data: w.payload === "full" ? { id: "...", "...": "..." } : { id: "..." } }, null, 2)),
    "",
    w.payload === "full" ? "`data` is the record as the API returns it." : "`data` carries only the record's id: fetch the record for its content.",
    "",
    "## Verifying deliveries",
    "",
    ...signatureScheme(w.signature).docs(w.signature),
    "",
    `Refuse deliveries whose signature does not match or whose timestamp is more than ${w.maxSkewS} s away from your clock.`,
    "",
    "## Retries",
    "",
    `Answer 2xx to acknowledge. Otherwise, or when your endpoint does not answer, the delivery is retried after ${w.retrySchedule.map((s) => `${s} s`).join(", then ")}. The same event can arrive more than once, and events can arrive out of order.`,
    "",
  ];
  if (w.ack) lines.push(`Acknowledge with a JSON body whose \`${w.ack.field}\` is the event id. Events never acknowledged are kept at \`GET ${w.ack.deadLetterPath}\`.`, "");
  if (w.subscriptionPath) lines.push("## Subscribing", "", `Register your endpoint with \`POST ${w.subscriptionPath}\` and \`{"url": "https://..."}\`.`, "");
  return lines.join("\n");
}
