import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "deleted-target-matched",
      mistake: "matches against every TalentForge candidate the list returns, deleted ones (is_deleted: true) included, so some people map to a deleted record",
      patches: [{ file: "src/migrate.ts", find: "(await tf.candidates()).filter((c) => c.is_deleted !== true);", replace: "await tf.candidates();" }],
    },
    {
      id: "matched-record-refreshed",
      mistake: "upserts: the email of a matched TalentForge record that existed before the migration is rewritten with HireWire's spelling",
      patches: [
        {
          file: "src/talentforge.ts",
          find: "  addNote(candidateId: string,",
          replace:
            '  async refreshEmail(id: string, email: string, idempotencyKey: string): Promise<void> {\n    const url = this.config.talentforgeUrl + "/rest/candidates/" + encodeURIComponent(id);\n    const read = await send(url, { method: "GET", headers: { "X-TF-Session": this.session!, Accept: "application/json" } }, { retryWrites: false });\n    const etag = read.res.headers.get("etag") ?? "*";\n    await send(url, { method: "PATCH", headers: { "X-TF-Session": this.session!, "Content-Type": "application/json", "If-Match": etag, "Idempotency-Key": idempotencyKey }, body: JSON.stringify({ email }) }, { retryWrites: true });\n  }\n\n  addNote(candidateId: string,',
        },
        {
          file: "src/migrate.ts",
          find: "    else if (!ours.has(key) && !byEmail.has(key) && !toCreate.has(key)) toCreate.set(key, p);\n",
          replace:
            '    else if (!ours.has(key) && !byEmail.has(key) && !toCreate.has(key)) toCreate.set(key, p);\n    else if (!ours.has(key) && byEmail.has(key)) await tf.refreshEmail(byEmail.get(key)!, p.email, "hirewire-refresh-" + p.id);\n',
        },
      ],
    },
    {
      id: "full-name-as-given-name",
      mistake: "takes HireWire's name for a full name and creates the TalentForge record with name and surname together as given_name",
      patches: [{ file: "src/migrate.ts", find: "given_name: p.name,", replace: 'given_name: p.name + " " + p.surname,' }],
    },
    {
      id: "next-page-token-misread",
      mistake:
        "reads the next page token from a cursor field TalentForge pages do not carry (they carry next_cursor), so only the first page of TalentForge candidates is matched and people past it are created again on every run",
      patches: [{ file: "src/talentforge.ts", find: "cursor = page.next_cursor ?? null;", replace: "cursor = (page as { cursor?: string | null }).cursor ?? null;" }],
    },
    {
      id: "earlier-mapping-rows-kept",
      mistake: "merges each run's rows into the previous mapping.json, so a candidate deleted in HireWire stays mapped",
      patches: [
        {
          file: "src/migrate.ts",
          find: 'import { readState, writeJson, writeState, type MappingRow } from "./state.ts";',
          replace: 'import { readJson, readState, writeJson, writeState, type MappingRow } from "./state.ts";',
        },
        {
          file: "src/migrate.ts",
          find: "  rows.sort((a, b) => a.hirewire_id - b.hirewire_id);\n",
          replace:
            '  for (const old of readJson<MappingRow[]>(config.outputDir, "mapping.json") ?? []) if (!rows.some((r) => r.hirewire_id === old.hirewire_id)) rows.push(old);\n  rows.sort((a, b) => a.hirewire_id - b.hirewire_id);\n',
        },
      ],
    },
    {
      id: "created-records-forgotten",
      mistake: "keeps no record of the TalentForge candidates it created, so a later run finds them by email and labels them matched, and annotate never notes them",
      patches: [
        { file: "src/migrate.ts", find: "  const state = readState(config.outputDir);\n", replace: "  const state = { ...readState(config.outputDir), created: {} as Record<string, string> };\n" },
      ],
    },
    {
      id: "annotate-not-rerun-safe",
      mistake: "annotate remembers no note it wrote and keys each note with a fresh UUID, so running it again adds every note a second time",
      patches: [
        { file: "src/annotate.ts", find: "    let noteId = written[String(m.hirewire_id)];\n", replace: "    let noteId: string | undefined;\n" },
        { file: "src/annotate.ts", find: "const stages = todo.some((m) => !written[String(m.hirewire_id)]) ?", replace: "const stages = todo.length ?" },
        {
          file: "src/annotate.ts",
          find: ".find((n) => n.is_deleted !== true && n.author === NOTE_AUTHOR && n.body.startsWith(prefix));",
          replace: ".find((n) => n.is_deleted !== true && n.author === NOTE_AUTHOR && n.body.startsWith(prefix) && false);",
        },
        { file: "src/annotate.ts", find: "`hirewire-note-", replace: "crypto.randomUUID() + `-" },
      ],
    },
    {
      id: "legacy-closed-out",
      mistake: "closes out each person it copied in HireWire by moving them to rejected, though HireWire must stay read-only",
      patches: [
        {
          file: "src/migrate.ts",
          find: "      state.created[String(p.id)] = created.id;\n",
          replace:
            '      state.created[String(p.id)] = created.id;\n      await fetch(config.hirewireUrl + "/v1/candidates/" + p.id + "/stage", { method: "POST", headers: { "X-API-Key": config.hirewireKey, "Content-Type": "application/json" }, body: JSON.stringify({ stage: "rejected" }) });\n',
        },
      ],
    },
    {
      id: "create-key-per-attempt",
      mistake:
        "makes each attempt's Idempotency-Key unique (the HireWire-derived key plus the attempt number), so a create retried after a 500 is a new request to TalentForge and makes a second person",
      patches: [
        {
          file: "src/http.ts",
          find: "    const res = await fetch(url, init);\n",
          replace:
            '    if (init.headers["Idempotency-Key"]) init.headers["Idempotency-Key"] = init.headers["Idempotency-Key"].split("#")[0] + "#" + attempt;\n    const res = await fetch(url, init);\n',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "task-0005 arms no 429 fault (only a create answered 500 after it was stored) and gold's runs stay inside HireWire's 120-request and TalentForge's 600-request windows (its manifest has no retry_after_honored: no 429 was sent), so there is no Retry-After to honour",
    "shared-no-wait":
      "no run reaches a rate-limit window, and the one 5xx (a create TalentForge stored, then answered 500) is retried once under the same key: without gold's backoff the retry goes out at once and gets the stored record, which is no hammering",
  },
});
