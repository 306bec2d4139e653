import { soft, type ConductContext, type ConductResult } from "./context.ts";

const BURST = 5;
const GAP_S = 2;

/** Soft: after an error answer, the client does not fire the same request over and over without pause. */
export function noHotLoop(ctx: ConductContext): ConductResult {
  const triggers = ctx.requests.filter((r) => r.status === 401 || r.status === 429 || r.status >= 500);
  if (!triggers.length) return null;
  // The same request is the same method, path, query and body: writes of different records are not a loop.
  const key = (r: (typeof ctx.requests)[number]) => `${r.method} ${r.path} ${JSON.stringify(Object.entries(r.query).sort())} ${r.bodySha256 ?? JSON.stringify(r.body ?? null)}`;
  for (const t of triggers) {
    let run = 0;
    let prev = t;
    for (const r of ctx.requests.filter((x) => x.seq > t.seq)) {
      if (key(r) !== key(t) || r.ts - prev.ts >= GAP_S) break;
      run += 1;
      prev = r;
    }
    if (run > BURST) return soft("no_hot_loop_on_error", false, `${run} identical requests within ${GAP_S}s of each other after a ${t.status} (#${t.seq})`);
  }
  return soft("no_hot_loop_on_error", true, `${triggers.length} error answers, no hot loop`);
}
