/**
 * @module capped-json
 * A JSON body read up to a byte cap: a longer one is answered 413 without
 * being held whole (its declared length, or the bytes read so far, pass the
 * cap), then parsed and validated like any other body (`read-json.ts`).
 */
import type { Context } from "hono";
import type { z } from "zod";
import { describeZodError } from "../control/schemas.ts";

/**
 * Reads off a body the route will not use (up to `maxBytes`), so the farm
 * streaming it to the grader is not left writing into a finished request.
 */
export async function discardBody(c: Context, maxBytes = 64 * 1024): Promise<void> {
  const reader = c.req.raw.body?.getReader();
  if (!reader) return;
  for (let total = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
    if (total > maxBytes) return void (await reader.cancel());
  }
}

/** The body's text, or a 413 once it passes `maxBytes`. */
async function cappedText(c: Context, maxBytes: number): Promise<string | Response> {
  const tooLarge = () => c.json({ error: `body is over the ${maxBytes}-byte limit` }, 413);
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > maxBytes) {
    await c.req.raw.body?.cancel();
    return tooLarge();
  }
  const body = c.req.raw.body;
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Parses and validates a JSON body of at most `maxBytes`; answers 413 or 400 naming what was wrong. */
export async function readCappedJson<T extends z.ZodType>(c: Context, schema: T, maxBytes: number): Promise<z.infer<T> | Response> {
  const text = await cappedText(c, maxBytes);
  if (text instanceof Response) return text;
  let raw: unknown;
  let prototypeKey = false;
  try {
    raw =
      text.trim() === ""
        ? {}
        : JSON.parse(text, (key, value) => {
            if (key === "__proto__") prototypeKey = true;
            return value;
          });
  } catch {
    return c.json({ error: "body is not valid JSON" }, 400);
  }
  if (prototypeKey) return c.json({ error: 'body: the key "__proto__" is not allowed' }, 400);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return c.json({ error: describeZodError(parsed.error) }, 400);
  return parsed.data;
}
