import type { Check } from "../../../evidence/verdict.ts";
import { FAULT_CONDUCT } from "../../../mechanics/faults/index.ts";
import type { ConductContext } from "./context.ts";
import { credentialsInQuery } from "./credentials-in-query.ts";
import { noFullResync } from "./full-resync.ts";
import { noHotLoop } from "./hot-loop.ts";
import { idempotentRetries } from "./idempotent-retries.ts";
import { resumeAfter5xx } from "./resume-after-5xx.ts";
import { retryAfterHonored } from "./retry-after.ts";
import { secretsEchoed } from "./secrets-echoed.ts";
import { tokenReuse } from "./token-reuse.ts";

/** Built-in checks, with the ones fault kinds bring (forged and stale webhook gates) where they always ran. */
const CHECKS = [credentialsInQuery, secretsEchoed, ...FAULT_CONDUCT, retryAfterHonored, noFullResync, resumeAfter5xx, noHotLoop, idempotentRetries, tokenReuse];

/** Every built-in conduct check whose evidence exists in this traffic. */
export function conductChecks(ctx: ConductContext): Check[] {
  return CHECKS.map((check) => check(ctx)).filter((c): c is Check => c !== null);
}
