/**
 * @module gateways/xml-text
 * Escaping for XML written by hand (service descriptions and examples).
 */

/** Text safe inside an element or a double-quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** An element holding each parameter as a child, indented for docs. */
export function paramElements(params: Record<string, string>, indent: string): string {
  return Object.entries(params)
    .map(([k, v]) => `${indent}<${k}>${escapeXml(v)}</${k}>`)
    .join("\n");
}
