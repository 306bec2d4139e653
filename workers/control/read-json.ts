import type { z } from "zod";
import { describeZodError } from "./schemas.ts";
import type { Context } from "hono";

/** Parses and validates a JSON body; answers 400 naming what was wrong. */
export async function readJson<T extends z.ZodType>(c: Context, schema: T | ((raw: unknown) => T)): Promise<z.infer<T> | Response> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    let prototypeKey = false;
    raw =
      text.trim() === ""
        ? {}
        : JSON.parse(text, (key, value) => {
            if (key === "__proto__") prototypeKey = true;
            return value;
          });
    if (prototypeKey) return c.json({ error: 'body: the key "__proto__" is not allowed' }, 400);
  } catch {
    return c.json({ error: "body is not valid JSON" }, 400);
  }
  const parsed = (typeof schema === "function" ? schema(raw) : schema).safeParse(raw);
  if (!parsed.success) return c.json({ error: describeZodError(parsed.error) }, 400);
  return parsed.data;
}
