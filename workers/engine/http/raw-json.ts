import { TextBody } from "../../../mechanics/kit/reply.ts";
import { SplicedJson } from "./spliced-json.ts";

/** A reply body that is already JSON text (assembled from cached fragments). */
export class RawJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

const UTF8 = new TextEncoder();

/** Serialises a reply body, passing pre-built JSON and text bodies through untouched. */
export function bodyText(body: unknown): string {
  if (body instanceof RawJson || body instanceof TextBody || body instanceof SplicedJson) return body.text;
  return JSON.stringify(body);
}

/** A reply body's UTF-8 bytes; a spliced body's may be shared with earlier replies (never write to them). */
export function bodyBytes(body: unknown): Uint8Array {
  return body instanceof SplicedJson ? body.bytes() : UTF8.encode(bodyText(body));
}
