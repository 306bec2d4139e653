import { TextBody } from "../../../mechanics/kit/reply.ts";

/** A reply body that is already JSON text (assembled from cached fragments). */
export class RawJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/** Serialises a reply body, passing pre-built JSON and text bodies through untouched. */
export function bodyText(body: unknown): string {
  if (body instanceof RawJson || body instanceof TextBody) return body.text;
  return JSON.stringify(body);
}
