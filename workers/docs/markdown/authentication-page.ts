import type { DocModel } from "../model.ts";
import { code, envName, table } from "./helpers.ts";

const PART_NAMES: Record<string, string> = {
  method: "the HTTP method, upper case",
  path: "the path relative to the base URL, without the query string",
  query: "the query string with parameters sorted by name, then value, each percent-encoded, joined by `&` (empty when there is none)",
  timestamp: "the value of the timestamp header",
  body_sha256: "the lower-case hex SHA-256 of the raw request body (of the empty string when there is none)",
  body: "the raw request body",
};

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
  for (const mint of m.mints) {
    if (mint.kind === "client_credentials") {
      lines.push(
        `## Access tokens: \`POST ${mint.path}\``,
        "",
        `OAuth 2.0 client credentials. Send \`grant_type=client_credentials\` with \`client_id\` and \`client_secret\` (form-encoded or JSON, or HTTP Basic). The response carries \`access_token\` and \`expires_in\` (${mint.ttlS} s).`,
        "",
      );
      if (mint.refresh) {
        lines.push(
          `The response also carries a \`refresh_token\`. Exchange it with \`grant_type=refresh_token\` for a new pair. Refresh tokens are ${mint.refresh.use === "single-use" ? "single-use: each exchange returns a new one and burns the old" : "reusable until they expire"}, and their lifetime (${mint.refresh.ttlS} s) is ${mint.refresh.expiry === "sliding" ? "sliding: every exchange restarts it" : "absolute: it counts from the first token and is not extended by exchanges"}.`,
          "",
        );
      }
    } else if (mint.kind === "session_exchange") {
      lines.push(
        `## Sessions: \`POST ${mint.path}\``,
        "",
        `Open a session with \`Authorization: Bearer <${mint.requires}>\`. The response carries \`${mint.responseField}\` and \`expires_in\` (${mint.ttlS} s). Sessions ${mint.expiry === "sliding" ? "slide: every authenticated request extends them" : "end after their lifetime whatever the activity"}.`,
        "",
      );
    } else {
      lines.push(`## Login: \`POST ${mint.path}\``, "", `Send \`username\` and \`password\`. The response sets the \`${mint.cookie}\` cookie (${mint.ttlS} s).`, "");
    }
  }
  lines.push("## Every request", "");
  for (const p of m.present) {
    if (p.kind === "header") {
      const value = "credential" in p.value ? `the \`${p.value.credential}\` credential` : `a \`${p.value.token}\``;
      lines.push(`- \`${p.name}: ${p.scheme ? `${p.scheme} ` : ""}<value>\` with ${value}.`);
    } else if (p.kind === "cookie") {
      lines.push(`- the \`${p.name}\` cookie from the login response.`);
    } else {
      lines.push(
        `- \`${p.timestampHeader}\`: the current time in ${p.timestampUnit === "s" ? "seconds" : "milliseconds"} since the Unix epoch. Requests more than ${p.allowedSkewS} s away from the server clock are refused; the server clock is in the \`Date\` response header.`,
        `- \`${p.signatureHeader}\`: HMAC-SHA256 with the \`${p.secret}\` credential over the string below, ${p.encoding === "hex" ? "lower-case hex" : "base64"}.`,
        "",
        `The string to sign joins these parts with ${JSON.stringify(p.separator)}:`,
        "",
        ...p.parts.map((part, i) => `${i + 1}. ${PART_NAMES[part]}`),
        "",
        code("", p.parts.map((part) => `<${part}>`).join(JSON.stringify(p.separator).slice(1, -1))),
      );
    }
  }
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
