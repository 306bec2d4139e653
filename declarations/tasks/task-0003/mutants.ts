import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "retry-after-read-as-seconds",
      mistake:
        "believes the changelog that Retry-After is in seconds: the HTTP date HireWire sends does not parse, so every 429 is retried after a one-second default instead of when the window reopens",
      patches: [{ file: "src/hirewire.ts", find: "  if (!raw) return fallback + 100;\n", replace: "  if (!raw || !/^\\d+$/.test(raw)) return 1000;\n" }],
    },
    {
      id: "idempotency-key-per-attempt",
      mistake: "mints a fresh Idempotency-Key for each attempt, so the retry of a stage move answered 500 after it committed is applied a second time",
      patches: [
        {
          file: "src/hirewire.ts",
          find: "      if (res.status >= 500 && ++transient < MAX_TRANSIENT_ATTEMPTS) {\n        await sleep(250 * 2 ** transient);\n",
          replace:
            '      if (res.status >= 500 && ++transient < MAX_TRANSIENT_ATTEMPTS) {\n        if (headers["Idempotency-Key"]) headers["Idempotency-Key"] = crypto.randomUUID();\n        await sleep(250 * 2 ** transient);\n',
        },
      ],
    },
    {
      id: "write-500-reported-failed",
      mistake: "does not retry a stage move answered 500 and reports it ok: false without reading the candidate back, though HireWire had committed it",
      patches: [
        {
          file: "src/hirewire.ts",
          find: "if (res.status >= 500 && ++transient < MAX_TRANSIENT_ATTEMPTS) {",
          replace: 'if (res.status >= 500 && method === "GET" && ++transient < MAX_TRANSIENT_ATTEMPTS) {',
        },
        {
          file: "src/hirewire.ts",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is gold's source, a template literal
          find: "if (r.status >= 500) return this.confirm(id, stage, `answered ${r.status} after retries`);",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, a template literal
          replace: "if (r.status >= 500) return { landed: false, stage: null, detail: `answered ${r.status}` };",
        },
      ],
    },
    {
      id: "rate-limited-write-given-up",
      mistake: "waits out a 429 on reads only: a stage move refused for the quota is reported as failed and never sent again",
      patches: [
        { file: "src/hirewire.ts", find: "if (res.status === 429 && ++waits <= MAX_RATE_LIMIT_WAITS) {", replace: 'if (res.status === 429 && method === "GET" && ++waits <= MAX_RATE_LIMIT_WAITS) {' },
        { file: "src/hirewire.ts", find: "    if (this.remaining === 0) await this.getCandidate(id);\n", replace: "" },
      ],
    },
    {
      id: "unrated-selected-by-comparison",
      mistake: "selects the backlog with rating <= 1, which in JavaScript also takes candidates without a rating (null <= 1), so unrated candidates are rejected too",
      patches: [{ file: "src/main.ts", find: "c.rating === 1 &&", replace: "(c.rating as number) <= 1 &&" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "gold falls back to X-RateLimit-Reset when Retry-After is missing, and HireWire's reset header names the same reopening as its Retry-After date on every 429, so dropping Retry-After waits exactly as long",
  },
});
