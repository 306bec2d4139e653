// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

/**
 * Where gold's Onboardly client gets a PATCH method for mutants that update packets: on the
 * session gold keeps, reading the packet's ETag first and sending it in If-Match, as updatePacket
 * requires. Its answer is not looked at (the mistakes are the writes, not their handling).
 */
const PATCH_METHOD_AT = "  get(path: string): Promise<Answer> {";
const PATCH_METHOD = [
  "  async patch(path: string, body: unknown): Promise<Answer> {",
  "    if (!this.cookie) await this.login();",
  "    const read = await fetch(`${this.config.baseUrl}${path}`, { headers: { cookie: this.cookie! } });",
  "    await read.body?.cancel();",
  '    const headers = { cookie: this.cookie!, "x-csrf-token": this.csrf, "content-type": "application/json", "if-match": read.headers.get("etag") ?? "" };',
  '    const res = await fetch(`${this.config.baseUrl}${path}`, { method: "PATCH", headers, body: JSON.stringify(body) });',
  "    return { status: res.status, body: await res.json().catch(() => null) };",
  "  }",
  "",
  "  get(path: string): Promise<Answer> {",
].join("\n");

export default defineMutants({
  mutants: [
    {
      id: "phone-sent-as-typed",
      mistake: "sends the signer's phone as HR typed it ('07700 900102') instead of the E.164 form addSigner asks for, so Onboardly cannot text the signing code",
      patches: [{ file: "src/main.ts", find: "phone: toE164(s.phone)", replace: "phone: s.phone" }],
    },
    {
      id: "first-row-wins",
      mistake: "keeps the first row for a ref and ignores HR's corrected row further down the file",
      patches: [{ file: "src/main.ts", find: "for (const s of loadStarters()) starters.set(s.ref, s);", replace: "for (const s of loadStarters()) if (!starters.has(s.ref)) starters.set(s.ref, s);" }],
    },
    {
      id: "retired-template-used",
      mistake: "checks only that the template exists and builds packets from a retired one (is_active false)",
      patches: [{ file: "src/main.ts", find: "return got.body.is_active === true ? null : `template ${id} is retired (not active in Onboardly)`;", replace: "return null;" }],
    },
    {
      id: "signer-checked-after-packet",
      mistake: "validates only the template before creating the packet, so a starter whose signer Onboardly refuses is left with an empty packet",
      patches: [{ file: "src/main.ts", find: "const problem = inputProblem(s) ?? (await templateProblem(s.template_id));", replace: "const problem = await templateProblem(s.template_id);" }],
    },
    {
      id: "idempotency-key-per-attempt",
      mistake: "derives a fresh Idempotency-Key for every retry of a create, so a create that committed but answered 5xx is made twice",
      patches: [
        {
          file: "src/onboardly.ts",
          find: 'if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;',
          replace: 'if (idempotencyKey) headers["idempotency-key"] = `${idempotencyKey}:${attempt}`;',
        },
      ],
    },
    {
      id: "adopts-draft-of-same-template",
      mistake:
        "takes any draft packet built from the starter's template for a packet left over from a failed run, updates it with the row and adds the starter to it, instead of creating the starter's own",
      patches: [
        {
          file: "src/main.ts",
          prepend: [
            "async function leftoverDraft(templateId: string): Promise<string | null> {",
            "  for (let offset = 0; ; ) {",
            "    const page = await api.get(`/api/v1/packets?limit=100&offset=${offset}`);",
            "    if (page.status !== 200) throw new Error(`listing packets: ${reason(page)}`);",
            "    const hit = (page.body.data as { id: string; template_id: string; status: string }[]).find((p) => p.template_id === templateId && p.status === 'draft');",
            "    if (hit) return hit.id;",
            "    if (page.body.next_offset == null) return null;",
            "    offset = page.body.next_offset;",
            "  }",
            "}",
          ].join("\n"),
        },
        {
          file: "src/main.ts",
          find: "let packetId = await knownPacket(journal.get(s.ref).packet_id);",
          replace:
            "let packetId = (await knownPacket(journal.get(s.ref).packet_id)) ?? (await leftoverDraft(s.template_id));\n  if (packetId) await api.patch(`/api/v1/packets/${encodeURIComponent(packetId)}`, { job_title: s.job_title, department: s.department });",
        },
        { file: "src/onboardly.ts", find: PATCH_METHOD_AT, replace: PATCH_METHOD },
      ],
    },
    {
      id: "packet-refreshed-every-run",
      mistake: "re-applies the starter's row to the packet it already made (PATCH) on every run, so a rerun over settled starters still writes to Onboardly",
      patches: [
        {
          file: "src/main.ts",
          find: "let packetId = await knownPacket(journal.get(s.ref).packet_id);",
          replace:
            "let packetId = await knownPacket(journal.get(s.ref).packet_id);\n  if (packetId) await api.patch(`/api/v1/packets/${encodeURIComponent(packetId)}`, { job_title: s.job_title, department: s.department });",
        },
        { file: "src/onboardly.ts", find: PATCH_METHOD_AT, replace: PATCH_METHOD },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the scenario arms no rate-limit or maintenance fault: its faults (a 504 and a 500 after commit, one 503 on a signer, one round of 401s) carry no Retry-After, and gold's run meets no 429 (retry_after_honored is not recorded for gold)",
    "shared-no-wait":
      "every fault the scenario arms fails one request once (504/500 after commit, one 503, one 401 per session), so gold's first retry succeeds; without waits that single retry goes out sooner and no endpoint is ever hit again while failing",
  },
});
