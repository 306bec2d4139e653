// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

const SERVE = "src/serve.ts";
const SYNC = "src/sync.ts";

export default defineMutants({
  mutants: [
    {
      id: "forged-delivery-accepted",
      mistake: "never compares the delivery's HMAC signature, so a forged delivery is acknowledged and applied to the board",
      patches: [{ file: SERVE, find: 'return given.length === expected.length && timingSafeEqual(given, expected) ? null : "signature does not match";', replace: "return null;" }],
    },
    {
      id: "stale-delivery-accepted",
      mistake: "checks the signature but not the timestamp's age, so a delivery replayed long after it was signed is taken in",
      patches: [{ file: SERVE, find: "if (Math.abs(skew) > MAX_SKEW_S) return `X-PlaceMint-Timestamp is ${skew} s away from now`;", replace: "" }],
    },
    {
      id: "deletion-event-ignored",
      mistake: "handles placement.deleted like any other change, so a deleted placement stays on the board while the listener runs",
      patches: [{ file: SERVE, find: '  if (action === "deleted") {\n    delete board.state.rows[id];\n    return;\n  }\n', replace: "" }],
    },
    {
      id: "last-delivery-wins",
      mistake: "applies every placement delivery it takes in, so an older version PlaceMint delivers late overwrites the newer one on the board",
      patches: [{ file: SERVE, find: "  if (held && held.updated_at >= row.updated_at) return;\n", replace: "" }],
    },
    {
      id: "ended-before-baseline-closed-out",
      mistake: "closes out every placement PlaceMint has as ended and not closed yet, including those that had already ended at the last sync",
      patches: [
        {
          file: SYNC,
          find: 'if (r.status !== "ended" || before === undefined || before === "ended" || closed.has(r.placement_id)) continue;',
          replace: 'if (r.status !== "ended" || before === undefined || closed.has(r.placement_id)) continue;',
        },
      ],
    },
    {
      id: "closed-out-once-per-placement-ever",
      mistake:
        "remembers a placement as closed out for good (its close-out and its idempotency key keyed by the placement alone), so an extended placement that ends again never gets the close-out of its new ending",
      patches: [
        { file: SYNC, find: '  for (const r of rows) if (r.status !== "ended") closed.delete(r.placement_id);\n  board.state.closed = [...closed];\n', replace: "" },
        { file: SYNC, find: "`desk-closeout-${r.placement_id}-${r.updated_at}`", replace: "`desk-closeout-${r.placement_id}`" },
      ],
    },
    {
      id: "fees-not-included",
      mistake: "builds the board from the placements list without include_fees, so the fee column comes out empty",
      patches: [
        { file: SYNC, find: 'import { Board } from "./board.ts";', replace: 'import { Board, rowFromRecord } from "./board.ts";' },
        {
          file: SYNC,
          find: "const rows = await feeStatements(client);",
          replace: 'void feeStatements;\n  const rows = (await client.listAll<{ id: string; deleted?: boolean }>("/v2/placements")).filter((p) => !p.deleted).map((p) => rowFromRecord(p));',
        },
      ],
    },
    {
      id: "board-from-list-crawl",
      mistake:
        "builds the board from the placements list with include_fees, reading it again while a crawl comes out short, instead of the fee statement export: on a busy Monday no crawl of the list holds still",
      patches: [
        { file: SYNC, find: 'import { Board } from "./board.ts";', replace: 'import { Board, rowFromRecord } from "./board.ts";' },
        {
          file: SYNC,
          find: "const rows = await feeStatements(client);",
          replace:
            'void feeStatements;\n  const rows = (await client.listAll<{ id: string; deleted?: boolean }>("/v2/placements", "&include_fees=true")).filter((p) => !p.deleted).map((p) => rowFromRecord(p));',
        },
      ],
    },
    {
      id: "export-file-refusal-fatal",
      mistake: "takes a 409 export_not_ready on the fee statement download, after the job said ready, as the end of the run instead of waiting and asking again",
      patches: [
        {
          file: "src/feestatements.ts",
          find: '      if (!(err instanceof PlaceMintError && err.status === 409 && err.code === "export_not_ready") || tries >= 5) throw err;\n',
          replace: "      void PlaceMintError;\n      throw err;\n",
        },
      ],
    },
    {
      id: "updated-at-normalized",
      mistake: "rewrites updated_at as a normalised ISO instant instead of keeping it exactly as PlaceMint writes it",
      patches: [{ file: "src/feestatements.ts", find: "row[col] = r[header].trim();", replace: 'row[col] = col === "updated_at" ? new Date(r[header].trim()).toISOString() : r[header].trim();' }],
    },
    {
      id: "broken-body-not-retried",
      mistake:
        "retries 5xx answers and dropped connections but reads the answer's body outside the retry (the last blind solver's client), so the export file whose connection drops part-way through ends the run",
      patches: [{ file: "src/placemint.ts", find: "const text = res ? await res.text().catch(() => null) : null;", replace: "const text = res ? await res.text() : null;" }],
    },
    {
      id: "broken-error-body-taken-as-refusal",
      mistake:
        "retries a success answer whose body breaks off, but reads an error answer that breaks off as a refusal with no code, so the export file's 409 not-ready cut off part-way is taken as the end of the run",
      patches: [
        { file: "src/placemint.ts", find: "const text = res ? await res.text().catch(() => null) : null;", replace: 'const text = res ? await res.text().catch(() => (res.ok ? null : "")) : null;' },
      ],
    },
    {
      id: "token-minted-per-request",
      mistake: "mints a new access token for every request instead of reusing one until PlaceMint refuses it",
      patches: [{ file: "src/placemint.ts", find: "this.token ??= await this.mint();", replace: "this.token = await this.mint();" }],
    },
    {
      id: "close-out-also-amends-placement",
      mistake: "closes a placement out by amending it on PlaceMint (PATCH status ended) as well as filing the note, a write the ticket does not allow",
      patches: [
        {
          file: SYNC,
          find: "      closed.add(r.placement_id);",
          replace:
            '      await client.request("PATCH", `/v2/placements/${encodeURIComponent(r.placement_id)}`, { status: "ended" }, { "idempotency-key": `desk-closeout-status-${r.placement_id}` });\n      closed.add(r.placement_id);',
        },
      ],
    },
  ],
});
