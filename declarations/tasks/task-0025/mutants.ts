// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches quote the connector's template literals word for word
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "hmac-never-compared",
      mistake: "checks a delivery's timestamp window but never compares its HMAC, so a forged delivery is taken in and acted on",
      patches: [
        {
          file: "src/signature.ts",
          find: '  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "signature does not match";\n',
          replace: "",
        },
      ],
    },
    {
      id: "key-per-attempt",
      mistake: "mints a fresh Idempotency-Key for each attempt of an Onboardly create, so the retry of a create that committed behind a 504 makes a second one",
      patches: [
        { file: "src/onboardly.ts", find: 'if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;', replace: 'if (idempotencyKey) headers["idempotency-key"] = crypto.randomUUID();' },
      ],
    },
    {
      id: "ledger-this-run-only",
      mistake: "writes the ledger as the reconcile's own work log: hires the listener or an earlier run provisioned are left out",
      patches: [
        {
          file: "src/main.ts",
          find: "  const apps = (await tf.list(",
          replace: "  const earlier = new Set(ledger.hires().filter((h) => h.uploaded).map((h) => h.application_id));\n  const apps = (await tf.list(",
        },
        { file: "src/main.ts", find: "    .filter((h) => h.uploaded)\n", replace: "    .filter((h) => h.uploaded && !earlier.has(h.application_id))\n" },
      ],
    },
    {
      id: "timestamp-read-as-ms",
      mistake: "reads X-TF-Timestamp as milliseconds, so every authentic delivery looks decades old and is refused, leaving every hire to the night's reconcile",
      patches: [{ file: "src/signature.ts", find: "const skew = nowS - Number(ts);", replace: "const skew = nowS - Math.floor(Number(ts) / 1000);" }],
    },
    {
      id: "listener-trusts-event",
      mistake: "the listener provisions the application of every application event it receives without checking that the record it reads is a hire since go-live",
      patches: [{ file: "src/main.ts", find: "if (got.status === 200 && isHire(got.body as ApiRecord))", replace: "if (got.status === 200)" }],
    },
    {
      id: "hire-noted-in-talentforge",
      mistake: "records each provisioned hire with a note on the TalentForge candidate, a write to TalentForge the ticket does not allow",
      patches: [
        {
          file: "src/provision.ts",
          find: "  hire.uploaded = true;\n  ledger.saveHire(hire);\n  return hire;",
          replace:
            '  hire.uploaded = true;\n  ledger.saveHire(hire);\n  const client = tf as unknown as { currentSession(): Promise<string>; send(m: string, p: string, h: Record<string, string>, b?: string): Promise<unknown> };\n  await client.send("POST", `/rest/candidates/${encodeURIComponent(String(app.candidate_id))}/notes`, { "x-tf-session": await client.currentSession(), "content-type": "application/json", "idempotency-key": `larkfield:${id}:note` }, JSON.stringify({ body: `Onboardly packet ${hire.packet_id} sent`, author: "Larkfield onboarding" }));\n  return hire;',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the scenario arms webhook duplicates, drops, reordering and one forgery on TalentForge and one 504 after commit on Onboardly (ATS_FAULTS, HR_FAULTS): neither vendor answers 429 or 503, so no Retry-After is ever sent",
    "shared-no-wait": "the only failed call is one Onboardly create that answers 504 after committing: the immediate retry with the same key gets the replay, and nothing asks for a wait",
  },
});
