import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "account-status-from-crm-copy",
      mistake: "follows the handover and takes a client's account status from the CRM's weekly copy where the copy has the client, so a client PlaceMint put on hold since is still invoiced",
      patches: [
        {
          file: "src/accounts.ts",
          find: "const contacts = new Map(snapshot.clients.map((c) => [copyKey(c.id), c.billing_contact]));",
          replace:
            "const contacts = new Map(snapshot.clients.map((c) => [copyKey(c.id), c.billing_contact]));\n  const copied = new Map(snapshot.clients.map((c) => [copyKey(c.id), c.account_status]));",
        },
        { file: "src/accounts.ts", find: "{ id: c.id, account_status: c.account_status,", replace: "{ id: c.id, account_status: copied.get(copyKey(c.id)) ?? c.account_status," },
      ],
    },
    {
      id: "copy-ids-joined-as-typed",
      mistake:
        "believes the handover that the copy joins to PlaceMint's clients directly and matches its hand-typed ids as they are, so clients typed with capitals or spaces lose their billing contact",
      patches: [{ file: "src/accounts.ts", find: "const copyKey = (id: string): string => id.trim().toLowerCase();", replace: "const copyKey = (id: string): string => id;" }],
    },
    {
      id: "drifting-list-read-once",
      mistake: "trusts one offset crawl of the placements while recruiters book: placements added mid-read shift the pages, so some are read twice and others missed",
      patches: [{ file: "src/placemint.ts", find: "if (seen.size >= count) return [...seen.values()];", replace: "return [...seen.values()];" }],
    },
    {
      id: "failed-page-ends-the-read",
      mistake: "takes a page that answers 5xx for the end of the list and writes the extract from the pages it read",
      patches: [
        { file: "src/placemint.ts", find: "if ((!res || res.status >= 500) && failures < 5) {", replace: "if ((!res || res.status >= 500) && failures < 0) {" },
        { file: "src/placemint.ts", find: "throw new Error(`GET ", replace: "if (res && res.status >= 500) return { results: [], count: 0, next_offset: null } as T;\n      throw new Error(`GET " },
      ],
    },
    {
      id: "weekly-billing-in-units",
      mistake: "turns the hourly bill rate from cents into currency units before multiplying, so weekly_billing_cents is written in units, not cents",
      patches: [
        { file: "src/main.ts", find: "weekly_billing_cents: p.hourly_bill_rate * p.hours_per_week,", replace: "weekly_billing_cents: Math.round((p.hourly_bill_rate / 100) * p.hours_per_week)," },
      ],
    },
    {
      id: "deleted-placements-extracted",
      mistake: "takes every placement whose status is active for a row, deleted ones included: PlaceMint's list keeps deleted placements with `deleted: true`",
      patches: [{ file: "src/main.ts", find: '.filter((p) => !p.deleted && p.status === "active");', replace: '.filter((p) => p.status === "active");' }],
    },
    {
      id: "deleted-client-invoiced",
      mistake: "decides invoicing from the account status alone, so the active placements of a client PlaceMint deleted (its status still `active`) are marked invoiceable",
      patches: [{ file: "src/main.ts", find: 'invoiceable: status === "active" && !account?.deleted,', replace: 'invoiceable: status === "active",' }],
    },
    {
      id: "deleted-clients-not-read",
      mistake: "reads only the clients PlaceMint has not deleted, so a deleted client's placements find no account and are taken for active and invoiceable",
      patches: [{ file: "src/accounts.ts", find: "return new Map(live.map(", replace: "return new Map(live.filter((c) => !c.deleted).map(" }],
    },
  ],
  equivalent: {},
});
