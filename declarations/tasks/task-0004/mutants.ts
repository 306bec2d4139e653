import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "token-as-audit-parameter",
      mistake: "keeps sending the app token as an app_token query parameter for StaffLine's audit records, so it lands in the gateway's access logs",
      patches: [{ file: "src/staffline-client.ts", find: "const query = new URLSearchParams(params);", replace: "const query = new URLSearchParams({ ...params, app_token: this.config.appToken });" }],
    },
    {
      id: "total-field-misnamed",
      mistake: "reads the record count from a `total` field StaffLine does not send (it is total_count), so every offset-paged list stops after its first page",
      patches: [
        {
          file: "src/staffline-client.ts",
          find: "const more = page._links ? page._links.next !== undefined : page.total_count !== undefined && start < page.total_count;",
          replace: "const more = page._links ? page._links.next !== undefined : start < Number((page as { total?: number }).total ?? start);",
        },
      ],
    },
    {
      id: "watermark-from-host-clock",
      mistake: "stamps the run with the host's clock instead of StaffLine's X-SL-Server-Time, so the next modified_since lies years past every StaffLine change",
      patches: [{ file: "src/sync.ts", find: "const watermark = client.firstServerTime ?? state?.last_sync_ms;", replace: "const watermark: number | undefined = Date.now();" }],
    },
    {
      id: "tombstones-invent-rows",
      mistake: "reads the whole tombstone feed and adds a deleted row for every tombstone, including records the mirror never held",
      patches: [
        { file: "src/sync.ts", find: 'await client.listAll("/svc/tombstones", since)', replace: 'await client.listAll("/svc/tombstones")' },
        {
          file: "src/sync.ts",
          find: "      const row = mirror.get(id);\n      // A record deleted before the mirror ever held it has no row to mark.\n      if (!row) continue;\n",
          replace: "      const row = mirror.get(id) ?? { source_id: id, data: {}, updated_at: t.deleted_ts, is_deleted: true };\n      mirror.set(id, row);\n",
        },
      ],
    },
    {
      id: "tombstones-remove-rows",
      mistake: "drops a tombstoned record from the mirror instead of keeping it marked is_deleted: true",
      patches: [{ file: "src/sync.ts", find: "      row.is_deleted = true;\n", replace: "      mirror.delete(id);\n" }],
    },
    {
      id: "stage-flag-dropped",
      mistake: "lists applications without include_stage=true, so the mirror's applications carry no pipeline stage",
      patches: [{ file: "src/sync.ts", find: 'params: { include_stage: "true" } },', replace: "params: {} }," }],
    },
  ],
  equivalent: {
    "shared-no-wait":
      "task-0004's scenarios arm no fault and each run makes a few dozen requests against StaffLine's 300-request window, so no 429 or 5xx arrives and gold's only retry (a 401 clock probe) never waits",
  },
});
