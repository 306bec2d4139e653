import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "stage-flag-dropped",
      mistake: "believes the changelog that applications always carry their stage, so lists them without include_stage=true and mirrors rows with no stage",
      patches: [{ file: "src/main.ts", find: 'params: { include_stage: "true" } }', replace: "params: {} }" }],
    },
    {
      id: "hal-links-only-paging",
      mistake: "follows only HAL next links, which candidate and application lists never carry, so those lists stop after their first page",
      patches: [
        {
          file: "src/staffline-client.ts",
          find: "const more = page._links ? Boolean(page._links.next) : page.total_count !== undefined && start < page.total_count;",
          replace: "const more = Boolean(page._links?.next);",
        },
      ],
    },
    {
      id: "watermark-from-host-clock",
      mistake: "stores the host's clock as the watermark, so modified_since lies years ahead of StaffLine's clock and the catch-up sees no change",
      patches: [
        {
          file: "src/main.ts",
          find: "writeState(config.outputDir, { watermark: Math.max(watermark, client.serverTime ?? 0) });",
          replace: "writeState(config.outputDir, { watermark: Date.now() });",
        },
      ],
    },
    {
      id: "include-deleted-flag-believed",
      mistake: "believes the documented include_deleted flag instead of reading /svc/tombstones, so deleted candidates are never marked",
      patches: [
        {
          file: "src/main.ts",
          find: 'const tombstones = command === "incremental" ? await client.listAll("/svc/tombstones", since) : [];',
          replace: "const tombstones: Record<string, unknown>[] = [];",
        },
        { file: "src/main.ts", find: 'type: "candidate", params: {} }', replace: 'type: "candidate", params: { include_deleted: "true" } }' },
      ],
    },
    {
      id: "tombstone-hard-deletes",
      mistake: "removes a tombstoned record from the mirror instead of keeping it with is_deleted: true",
      patches: [{ file: "src/main.ts", find: "if (row) row.is_deleted = true;", replace: "if (row) mirror.delete(String(t.id));" }],
    },
    {
      id: "host-clock-timestamp",
      mistake: "signs with the host's clock without correcting for StaffLine's skew, so every request falls outside the 30-second window and is refused",
      patches: [
        {
          file: "src/staffline-client.ts",
          find: "const timestamp = String(Math.floor((Date.now() + this.skewMs!) / 1000));",
          replace: "const timestamp = String(Math.floor(Date.now() / 1000));",
        },
      ],
    },
    {
      id: "incremental-rereads-tenant",
      mistake: "the incremental run lists every record again without modified_since instead of asking only for changes",
      patches: [
        {
          file: "src/main.ts",
          find: "for (const record of await client.listAll(e.path, { ...e.params, ...since })) {",
          replace: "for (const record of await client.listAll(e.path, { ...e.params })) {",
        },
      ],
    },
  ],
  equivalent: {
    "shared-no-wait": "task-0001's scenarios arm no fault and gold makes about ten requests against a 300-request limit, so no 429 or 5xx ever arrives and no wait is ever taken",
  },
});
