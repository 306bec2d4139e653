import { send } from "./http.ts";

export interface NewWorker {
  first_name: string;
  last_name: string;
  email: string;
  mobile?: string;
  home_zone: string;
  primary_role: string;
}

/** Creates a worker; the key makes a retried or repeated call answer with the first call's worker. */
export async function createWorker(baseUrl: string, apiKey: string, worker: NewWorker, idempotencyKey: string): Promise<number | string> {
  const { status, body } = await send(`${baseUrl}/partner/v1/workers`, {
    method: "POST",
    headers: { Authorization: `Token ${apiKey}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
    body: JSON.stringify(worker),
  });
  if (status < 200 || status >= 300) throw new Error(`CrewCall refused ${worker.email}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  return (body as { id: number | string }).id;
}

/** Every worker on the roster, by lower-cased email: offset pages of 200 until a short one. */
export async function workersByEmail(baseUrl: string, apiKey: string): Promise<Map<string, number | string>> {
  const out = new Map<string, number | string>();
  for (let offset = 0; ; offset += 200) {
    const { status, body } = await send(`${baseUrl}/partner/v1/workers?offset=${offset}&limit=200`, { headers: { Authorization: `Token ${apiKey}` } });
    if (status !== 200) throw new Error(`CrewCall workers answered ${status}`);
    const records = (body as { records: { id: number | string; email: string }[] }).records;
    for (const w of records) out.set(w.email.trim().toLowerCase(), w.id);
    if (records.length < 200) return out;
  }
}
