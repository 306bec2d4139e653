// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

const MIGRATE = "src/migrate.ts";
const CLIENT = "src/rosterly.ts";

export default defineMutants({
  mutants: [
    {
      id: "wall-time-taken-as-utc",
      mistake: "believes the old job's comment that Rosterly sends UTC: punched_utc is Rosterly's wall-clock stamp with a Z appended",
      patches: [{ file: MIGRATE, find: "punched_utc: iso(moments[0])", replace: "punched_utc: `${wall}Z`" }],
    },
    {
      id: "deleted-punches-copied",
      mistake: "copies every punch Rosterly lists, deleted ones included, into punches_utc.json and audits them as still held",
      patches: [{ file: MIGRATE, find: '(await rosterly.all("/api/v3/punches")).filter((p) => p.deleted !== true)', replace: '(await rosterly.all("/api/v3/punches"))' }],
    },
    {
      id: "shift-minutes-sign-flipped",
      mistake: "works out shift_minutes as punched_utc minus the old copy's moment, so an old copy that is late shows as early",
      patches: [{ file: MIGRATE, find: "(Date.parse(old.punched_at) - Date.parse(now.utc.punched_utc))", replace: "(Date.parse(now.utc.punched_utc) - Date.parse(old.punched_at))" }],
    },
    {
      id: "ambiguous-status-dropped",
      mistake: "marks a punch from the repeated hour moved or kept by its shift instead of ambiguous",
      patches: [{ file: MIGRATE, find: 'const status = now.ambiguous ? "ambiguous" : minutes', replace: "const status = minutes" }],
    },
    {
      id: "audit-rows-from-live-punches",
      mistake: "audits the punches Rosterly holds now instead of the old job's copy, so punches gone since the last night get no gone record",
      patches: [
        {
          file: MIGRATE,
          find: "for (const old of [...legacy].sort((a, b) => (a.id < b.id ? -1 : 1))) {",
          replace:
            "const legacyById = new Map(legacy.map((l) => [l.id, l]));\n  for (const old of sorted.map((x) => legacyById.get(x.utc.punch_id) ?? { id: x.utc.punch_id, punched_at: x.utc.punched_utc })) {",
        },
      ],
    },
    {
      id: "note-shows-utc-time",
      mistake: "writes the punch's UTC moment into the clock-change note instead of the time as Rosterly shows it",
      patches: [{ file: MIGRATE, find: "(${String(punch.punched_at)} ${String(punch.venue_tz)})", replace: "(${byId.get(punch.id)?.utc.punched_utc} ${String(punch.venue_tz)})" }],
    },
    {
      id: "session-not-renewed",
      mistake: "never logs in again when Rosterly answers 401: the session signed out while the notes are filed stops the migration",
      patches: [{ file: CLIENT, find: "if (res.status === 401 && !relogged) {", replace: "if (res.status === 401 && relogged) {" }],
    },
    {
      id: "csrf-kept-after-relogin",
      mistake: "logs in again after the session is signed out but keeps the first session's CSRF token, which Rosterly refuses on the new session's writes",
      patches: [{ file: CLIENT, find: "this.csrf = body.csrf;", replace: "this.csrf ||= body.csrf;" }],
    },
    {
      id: "relogin-once-per-run",
      mistake: "logs in again at most once per run, as a guard against a login loop: the second time Rosterly signs the session out, the migration stops",
      patches: [
        { file: CLIENT, find: 'private csrf = "";', replace: 'private csrf = "";\n  private reloggedOnce = false;' },
        { file: CLIENT, find: "if (res.status === 401 && !relogged) {", replace: "if (res.status === 401 && !relogged && !this.reloggedOnce) {\n        this.reloggedOnce = true;" },
      ],
    },
    {
      id: "fresh-key-after-relogin",
      mistake:
        "treats the write refused on the signed-out session as a new attempt and sends it under a new Idempotency-Key after logging in again, without checking whether the lost answer's note had landed",
      patches: [{ file: CLIENT, find: "relogged = true;\n        await this.login();", replace: "relogged = true;\n        await this.login();\n        if (key) key = `${key}-relogin`;" }],
    },
    {
      id: "short-list-accepted-after-three-reads",
      mistake:
        "reads the punch list again when a whole read holds fewer punches than its total, but at most three times, then takes the short list as it is: punches the moving list hid from every read are missing from the copy and audited as gone",
      patches: [
        {
          file: CLIENT,
          find: "if (pass >= LIST_PASSES) throw new Error(`GET ${path}: ${byId.size} of ${total} records after ${pass} reads; the list kept moving`);",
          replace: "if (pass >= 3) return [...byId.values()];",
        },
      ],
    },
    {
      id: "page-two-never-read",
      mistake: "reads only the first page of punches: next_offset is never followed",
      patches: [{ file: CLIENT, find: "offset = page.next_offset;", replace: "offset = null;" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the cutover scenario declares no throttling or maintenance fault and each run of migrate makes well under 150 requests (four reads of the punch list included), far below Rosterly's 300-request window, so no 429 or 503 with Retry-After is ever answered",
    "shared-no-wait":
      "the only error answers in the scenario are one 504 after Rosterly committed the first note and one 401 on each of the two signed-out sessions; the retry under the same key (after a new login) gets the committed note at once or after a wait alike, and nothing is retried five times",
  },
});
