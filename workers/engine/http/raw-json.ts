/** A reply body that is already JSON text (assembled from cached fragments). */
export class RawJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/** Serialises a reply body, passing pre-built JSON through untouched. */
export function bodyText(body: unknown): string {
  return body instanceof RawJson ? body.text : JSON.stringify(body);
}
