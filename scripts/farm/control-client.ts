import { UsageError } from "../kit/usage-error.ts";

/** A farm the CLI talks to. */
export interface FarmHandle {
  url: string;
  /** Bearer the control plane takes: the admin token, or a participant key (WIREBENCH_KEY). */
  adminToken: string;
  /** Stops the farm if this process started it. */
  close(): Promise<void>;
}

/** Calls the control plane; non-2xx answers become UsageErrors carrying the farm's message. */
export async function controlCall<T>(farm: FarmHandle, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${farm.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${farm.adminToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new UsageError(`cannot reach the farm at ${farm.url}: ${(err as Error).message}`);
  }
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`farm at ${farm.url} answered ${res.status} with a non-JSON body`);
  }
  if (!res.ok) throw new UsageError(`farm refused ${method} ${path}: ${parsed.error ?? text}`);
  return parsed as T;
}
