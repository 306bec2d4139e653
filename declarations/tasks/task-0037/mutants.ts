// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "staffline-noted-after-copy",
      mistake: "leaves a note on each StaffLine candidate saying where it moved in Bullpen, a write to StaffLine after the cut-over",
      patches: [
        {
          file: "src/main.ts",
          find: "    state.copies[id] = String(created.id);\n",
          replace: '    state.copies[id] = String(created.id);\n    await staffline.write("/svc/rpc/createNote", { candidate_id: id, note_text: `Moved to Bullpen as ${String(created.id)}` });\n',
        },
      ],
    },
    {
      id: "idempotency-key-per-attempt",
      mistake: "sends a fresh Idempotency-Key on each retry of a create, so a registration Bullpen stored before answering 504 is registered twice",
      patches: [{ file: "src/bullpen.ts", find: '"Idempotency-Key": key }', replace: '"Idempotency-Key": `${key}-${attempt}` }' }],
    },
    {
      id: "phone-not-renamed",
      mistake: "copies StaffLine's `phone` under its own name instead of Bullpen's `mobile_phone`, so the copies carry no mobile number",
      patches: [{ file: "src/main.ts", find: '["phone", "mobile_phone"],', replace: '["phone", "phone"],' }],
    },
    {
      id: "first-page-of-staffline-only",
      mistake: "reads only the first page of StaffLine's candidates (100 of them), so the rest are never copied",
      patches: [{ file: "src/staffline.ts", find: "if (results.length === 0 || page.total_count === undefined || start >= page.total_count) return rows;", replace: "return rows;" }],
    },
    {
      id: "deleted-dropped-from-map",
      mistake: "drops candidates StaffLine has deleted since they were copied from the map instead of listing them with deleted_in_staffline true",
      patches: [
        {
          file: "src/main.ts",
          find: "  const rows = Object.entries(state.copies)\n",
          replace: "  const rows = Object.entries(state.copies)\n    .filter(([stafflineId]) => liveIds.has(stafflineId))\n",
        },
      ],
    },
    {
      id: "map-from-this-run-only",
      mistake: "writes the map from this run's copies only, so candidates copied on earlier nights drop out of it",
      patches: [
        {
          file: "src/main.ts",
          find: "  const rows = Object.entries(state.copies)\n",
          replace: "  const rows = Object.entries(state.copies)\n    .filter(([stafflineId]) => todo.some((c) => String(c.id) === stafflineId))\n",
        },
      ],
    },
    {
      id: "staffline-app-token-in-url",
      mistake: "sends the StaffLine app token as an `app_token` query parameter (signed with the rest of the query), so it lands in every access log",
      patches: [
        {
          file: "src/staffline.ts",
          find: "    const timestamp = String(Math.floor((Date.now() + this.skewMs) / 1000));\n",
          replace: '    query.set("app_token", this.config.appToken);\n    const timestamp = String(Math.floor((Date.now() + this.skewMs) / 1000));\n',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the only throttling in the scenario is Bullpen's bp-burst-429, which puts the wait in the body (error.retry_after_seconds) and sends no Retry-After header; gold reads the body's wait, which the mutant leaves in place, and StaffLine is armed with no fault",
  },
});
