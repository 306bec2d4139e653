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
