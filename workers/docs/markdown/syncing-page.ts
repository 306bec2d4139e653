import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import type { DocModel } from "../model.ts";
import { describeTimeFormat } from "./helpers.ts";
import { deletesLine } from "./index-page.ts";

/** `syncing.md`: incremental reads, timestamps and deletes. */
export function syncingPage(m: DocModel): string {
  const lines = ["# Keeping a copy in sync", "", "## Timestamps", "", `All timestamps are ${describeTimeFormat(m.timeFormat, m.timeZone)}.`, ""];
  if (m.serverTimeHeader)
    lines.push(`Every response carries the server's current time in \`${m.serverTimeHeader}\`, in the same format. Use it, not your own clock, as the watermark for the next incremental read.`, "");
  const incremental = m.resources.filter((r) => r.list?.params.some((p) => p.role === "since"));
  if (incremental.length) {
    const param = incremental[0].list!.params.find((p) => p.role === "since")!;
    lines.push("## Incremental reads", "", `These lists accept \`${param.name}\`: ${incremental.map((r) => `\`${r.list!.path}\``).join(", ")}. ${param.description}`, "");
  }
  lines.push("## Deletes", "", `${deletesLine(m)[0].toUpperCase()}${deletesLine(m).slice(1)}.`, "");
  const more = deleteStyle(m.deletes).docs.syncing?.(m.deletes, incremental.length > 0);
  if (more) lines.push(more, "");
  return lines.join("\n");
}
