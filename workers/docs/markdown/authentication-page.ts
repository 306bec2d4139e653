import type { DocModel } from "../model.ts";
import { authScheme, tokenMint } from "../../../mechanics/auth/index.ts";
import { authDocsContext, envName, table } from "./helpers.ts";

/** `authentication.md`: credentials, token endpoints and what every request carries. */
export function authenticationPage(m: DocModel): string {
  const lines = [
    "# Authentication",
    "",
    "## Credentials",
    "",
    table(
      ["name", "environment variable", "what it is"],
      m.credentials.map((c) => [`\`${c.name}\``, `\`${envName(m, c.name)}\``, c.description]),
    ),
    "",
  ];
  for (const mint of m.mints) lines.push(...tokenMint(mint).docs.section(mint));
  lines.push("## Every request", "");
  for (const p of m.present) lines.push(...authScheme(p).docs.every(p, authDocsContext(m)));
  if (m.legacy && "credential" in m.legacy.value) {
    lines.push(
      "",
      "## Legacy authentication (deprecated)",
      "",
      `Integrations built before the current scheme may still send \`${m.legacy.name}: <${m.legacy.value.credential}>\` instead. It will be retired; move to the scheme above.`,
    );
  }
  lines.push("", "Missing or invalid credentials get `401`.", "");
  return lines.join("\n");
}
