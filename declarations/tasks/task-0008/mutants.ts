import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "key-from-name-not-client-ref",
      mistake: "derives the Idempotency-Key from the hire's name instead of client_ref: the second Daniel Kim replays the first one's candidate and note",
      patches: [
        {
          file: "src/batch.ts",
          find: 'export function keyFor(batch: Batch, hire: Hire, write: "candidate" | "note"): string {',
          replace:
            'export function keyFor(batch: Batch, hire: Hire, write: "candidate" | "note"): string {\n  return "newhire:" + batch.batch + ":" + hire.legal_first_name + "-" + hire.legal_last_name + ":" + write;',
        },
      ],
    },
    {
      id: "key-fresh-per-attempt",
      mistake: "mints the Idempotency-Keys once per process (a run id), so a rerun of the batch sends new keys and creates every hire a second time",
      patches: [
        { file: "src/batch.ts", prepend: 'import { randomUUID } from "node:crypto";\nconst RUN_ID = randomUUID();\n' },
        {
          file: "src/batch.ts",
          find: 'export function keyFor(batch: Batch, hire: Hire, write: "candidate" | "note"): string {',
          replace: 'export function keyFor(batch: Batch, hire: Hire, write: "candidate" | "note"): string {\n  return "newhire:" + RUN_ID + ":" + hire.client_ref + ":" + write;',
        },
      ],
    },
    {
      id: "missing-family-name-invented",
      mistake: "fills a hire's missing family name from the given name so TalentForge accepts it, instead of reporting the refusal",
      patches: [{ file: "src/batch.ts", find: "family_name: h.legal_last_name,", replace: "family_name: h.legal_last_name || h.legal_first_name," }],
    },
    {
      id: "server-error-on-write-reported-refused",
      mistake: "takes a 5xx answer to a write as TalentForge refusing the hire: the committed candidate is reported not applied and its note is never sent",
      patches: [
        { file: "src/talentforge.ts", find: "if (res.status >= 500 && retrySafe && attempt < MAX_TRIES) {", replace: 'if (res.status >= 500 && method === "GET" && attempt < MAX_TRIES) {' },
        {
          file: "src/main.ts",
          find: "return err instanceof ApiError && err.status >= 400 && err.status < 500 && ![401, 403, 429].includes(err.status);",
          replace: "return err instanceof ApiError && err.status >= 400 && ![401, 403, 429].includes(err.status);",
        },
      ],
    },
    {
      id: "revoked-403-taken-as-refusal",
      mistake: "re-authenticates only on 401: TalentForge's off-spec 403 token_revoked is reported as a refusal of each remaining hire",
      patches: [
        { file: "src/talentforge.ts", find: "if ((r.status === 401 || r.status === 403) && reauth < MAX_REAUTH) {", replace: "if (r.status === 401 && reauth < MAX_REAUTH) {" },
        { file: "src/main.ts", find: "![401, 403, 429].includes(err.status)", replace: "![401, 429].includes(err.status)" },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "TalentForge never answers 429 or 503 here: its rate limit (600 a window) is far above the batch's few dozen requests and no scenario arms a rate-limit or maintenance fault, so there is no Retry-After to honour",
    "shared-no-wait":
      "the only server error the scenarios send is one 500 after a committed create; retried at once with the same Idempotency-Key it is replayed like a retry after a backoff, and nothing else is ever retried",
  },
});
