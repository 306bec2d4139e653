import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "idempotency-key-per-attempt",
      mistake: "makes a new Idempotency-Key for every attempt of a write, so an offer stored and then answered 502 is stored again by its retry",
      patches: [
        { file: "src/crewcall.ts", find: '    if (opts.key) headers["Idempotency-Key"] = opts.key;\n', replace: "" },
        { file: "src/crewcall.ts", find: "    for (;;) {\n", replace: '    for (;;) {\n      if (opts.key) headers["Idempotency-Key"] = [opts.key, failures].join("-");\n' },
      ],
    },
    {
      id: "bulk-207-trusted",
      mistake: "trusts every worker number the bulk create's 207 reports without reading it back, so the starter CrewCall never stored is never booked",
      patches: [{ file: "src/main.ts", find: "if (await onRoster(client, String(r.id))) {", replace: "if (r.id !== undefined) {" }],
    },
    {
      id: "email-case-sensitive",
      mistake: "matches starters by their email as typed (only trimmed), so a starter typed in capitals on a second line gets a second account",
      patches: [{ file: "src/people.ts", find: "return v.trim().toLowerCase();", replace: "return v.trim();" }],
    },
    {
      id: "worker-number-as-typed",
      mistake: "takes a worker number exactly as typed, so 031207 is looked up (and reported) as a number CrewCall does not have",
      patches: [{ file: "src/people.ts", find: "return String(Number(t));", replace: "return t;" }],
    },
    {
      id: "regulars-checked-against-one-crawl",
      mistake: "checks returning crew's numbers against one offset crawl of the roster while it changes: workers who moved to its head are missed and their lines reported unknown",
      patches: [
        { file: "src/crewcall.ts", find: "if (pass > 0 && added === 0) return out;", replace: "return out;" },
        {
          file: "src/main.ts",
          find: "  const known = new Map<string, boolean>();\n",
          replace: '  const known = new Map<string, boolean>();\n  const crawled = await client.all("/partner/v1/workers");\n',
        },
        { file: "src/main.ts", find: "known.set(n, await onRoster(client, n));", replace: "known.set(n, crawled.has(n));" },
      ],
    },
    {
      id: "pending-offer-offered-again",
      mistake: "looks only for confirmed bookings: someone holding an offer they have not accepted (an offer stored before a failed run) is offered the gig again",
      patches: [{ file: "src/main.ts", find: 'const offered = existing.find((a) => a.status === "offered");', replace: "const offered = undefined as CrewRecord | undefined;" }],
    },
    {
      id: "offer-taken-as-booking",
      mistake: "treats an accepted offer call as the booking and never confirms it, so the assignment stays at `offered`",
      patches: [{ file: "src/main.ts", find: "    if (await confirm(client, id)) return id;\n", replace: "    return id;\n" }],
    },
    {
      id: "lapsed-offer-confirm-retried",
      mistake:
        "retries every 409 on a confirmation as the board rebalancing the docs mention, without reading its code: an offer that lapsed answers 409 `offer_expired` on every try, the first run gives up and exits non-zero, and its line is left to the rerun",
      patches: [{ file: "src/main.ts", find: '    finalCodes: ["offer_expired"],\n', replace: "" }],
    },
    {
      id: "lapsed-offer-taken-as-booking",
      mistake: "takes an offer that lapsed before it was confirmed (409 `offer_expired`) for the person's booking and reports it, so the person holds no confirmed booking on the gig",
      patches: [
        {
          file: "src/main.ts",
          find: '  if (res.status === 409 && res.body?.code === "offer_expired") return false;\n',
          replace: '  if (res.status === 409 && res.body?.code === "offer_expired") return true;\n',
        },
      ],
    },
    {
      id: "offer-202-taken-as-failure",
      mistake:
        "takes the 202 an offer answers when CrewCall takes it for later for a failure (only 201 counts): the first run exits non-zero although nothing failed, and its lines are left to the rerun",
      patches: [
        {
          file: "src/main.ts",
          find: "    if (res.status !== 201 && res.status !== 202) throw new Error(",
          replace: "    if (res.status !== 201) throw new Error(",
        },
      ],
    },
    {
      id: "offer-202-offered-again",
      mistake: "offers the gig again under a new Idempotency-Key when an offer answers 202 (pending), so once both land the person holds two offers of the gig",
      patches: [
        {
          file: "src/main.ts",
          find: "    const id = res.status === 202 ? await acceptedOffer(client, gig, worker, after) : String(res.body.id);",
          replace:
            '    const id = res.status === 202 ? String((await client.request("POST", "/partner/v1/assignments", { body: { gig_id: Number(gig), worker_id: Number(worker) }, key: [key, "again"].join("-") })).body.id) : String(res.body.id);',
        },
      ],
    },
    {
      id: "unknown-number-booked",
      mistake: "books every number on the sheet without checking CrewCall has such a worker",
      patches: [{ file: "src/main.ts", find: "(n && known.get(n) ? n : null)", replace: "n" }],
    },
    {
      id: "unknown-number-set-up-as-starter",
      mistake: "takes a line whose CrewCall number is not on CrewCall for a new starter and sets an account up for it, filling the details CrewCall requires with placeholders",
      patches: [
        {
          file: "src/main.ts",
          find: "for (const l of sheet) if (!l.crewcall_no.trim() && !starters.has(canonicalEmail(l.email)))",
          replace: 'for (const l of sheet) if (!known.get(workerNumber(l.crewcall_no) ?? "") && !starters.has(canonicalEmail(l.email)))',
        },
        { file: "src/main.ts", find: "first_name: l.first_name.trim(),", replace: 'first_name: l.first_name.trim() || "New",' },
        { file: "src/main.ts", find: "last_name: l.last_name.trim(),", replace: "last_name: l.last_name.trim() || `Starter ${l.crewcall_no.trim()}`," },
        { file: "src/main.ts", find: "email: canonicalEmail(l.email),", replace: "email: canonicalEmail(l.email) || `crew-${l.crewcall_no.trim()}@kestrel-events.example`," },
        { file: "src/main.ts", find: "home_zone: l.home_zone.trim(),", replace: 'home_zone: l.home_zone.trim() || "unassigned",' },
        { file: "src/main.ts", find: "primary_role: crewRole(l.role),", replace: 'primary_role: crewRole(l.role) || "warehouse_associate",' },
      ],
    },
    {
      id: "body-read-outside-retry",
      mistake:
        "retries a 5xx and a failed fetch under the same Idempotency-Key, but reads the answer's body after the retry loop: an answer that breaks off part-way (a dropped connection, which CrewCall's Errors page says to retry like a 5xx) throws out of the run, which exits non-zero and leaves its lines to the rerun",
      patches: [
        {
          file: "src/crewcall.ts",
          find: "        text = await res.text();\n      } catch {\n        res = null;\n      }\n",
          replace: "      } catch {\n        res = null;\n      }\n      if (res) text = await res.text();\n",
        },
      ],
    },
    {
      id: "readback-outside-retry",
      mistake:
        "reads back each worker number the bulk create's 207 reports with one bare request outside the client's retry, and takes an answer that broke off part-way for \"no such worker\": a starter CrewCall stored is set up a second time",
      patches: [
        {
          file: "src/main.ts",
          find: "    if (await onRoster(client, String(r.id))) {\n",
          replace:
            '    const { baseUrl, apiKey } = loadConfig();\n    const stored = await fetch(baseUrl + "/partner/v1/workers/" + r.id, { headers: { Authorization: "Token " + apiKey } })\n      .then(async (x) => x.status === 200 && Boolean(await x.json()))\n      .catch(() => false);\n    if (stored) {\n',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored": "no 429 or 503 is answered in this scenario (gold's manifest records no retry_after_honored): the faults are a drifting roster, a phantom in a 207 and 502s",
    "shared-no-wait": "each 502 fault fires once, so the first retry is served whatever the pause; a retry at once is not a hot loop, and the retried writes carry their Idempotency-Key either way",
  },
});
