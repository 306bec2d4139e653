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
  lines.push("", "Missing or invalid credentials get `401`.");
  if (m.mints.length) {
    lines.push(
      "",
      "A token the API refuses carries one of these codes: `invalid_token` (not a token of ours, or not one for this use), `token_expired` (past its lifetime) or `token_revoked` (withdrawn before its lifetime ended, as when credentials are rotated). Get a new token, then send the request again.",
    );
    if (m.gateways.length) lines.push("", "A call through a gateway that is refused for its token reports the same code in its failure.");
  }
  lines.push("");
  return lines.join("\n");
}
