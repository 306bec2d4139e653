import { defineVendor } from "../schema/define.ts";

const ZONES = ["Europe/London", "Europe/London", "Europe/London", "Europe/Berlin", "Europe/Dublin", "America/New_York", "America/New_York", "America/Chicago"];
const VENUE_NAMES = [
  "The Copper Kettle",
  "Harbour & Vine",
  "Northgate Tap Room",
  "Linden Hotel",
  "Brick Lane Bagel Co.",
  "Saltmarsh Kitchen",
  "Ostbahnhof Bar",
  "Union Square Provisions",
  "Lakeshore Diner",
  "Fennel & Fig",
  "The Gilded Anchor",
  "Riverside Market Hall",
];
const VENUE_TYPES = ["bar", "restaurant", "hotel", "cafe", "retail"];
const ROLES = ["bartender", "server", "line_cook", "host", "barista", "sales_associate", "cashier", "shift_lead", "porter", "housekeeping"];
const EMPLOYMENT = ["hourly", "salaried", "casual", "agency"];
const PUNCH_KINDS = ["clock_in", "clock_out", "break_start", "break_end"];
const VISIBILITY = ["managers", "worker_and_managers"];

/**
 * Rota start times, every half hour over three weeks around the autumn clock
 * changes (26 October in Europe, 2 November in the US). Day shifts start
 * between 04:00 and 23:30 UTC; on the two fall-back nights late starts run
 * through the night, so some shifts start inside the repeated hour.
 */
const SHIFT_STARTS: number[] = [];
for (let t = Date.parse("2025-10-20T00:00:00Z"); t < Date.parse("2025-11-10T00:00:00Z"); t += 30 * 60_000) {
  const d = new Date(t);
  const fallBackNight = d.toISOString().startsWith("2025-10-26") || d.toISOString().startsWith("2025-11-02");
  if (d.getUTCHours() >= 4 || fallBackNight) SHIFT_STARTS.push(t);
}

/** Rosterly: shift rotas and time clocks for hospitality and retail, with venue-local wall-clock times that repeat an hour on fall-back night. */
export default defineVendor({
  id: "rosterly",
  name: "Rosterly",
  category: "scheduling",
  summary:
    "Rosterly runs the rota for bars, restaurants, hotels and shops: managers build each week's shifts per venue, staff swap them in the app, and the time clock on the venue tablet records every clock-in, break and clock-out. The Rosterly API gives payroll and workforce-analytics partners the venues, staff, shifts and punches of an organisation. Every venue, shift and punch names the time zone of its venue, so a rota reads the way the venue's staff see it. Partners sign in the way the manager web app does: `POST /api/v3/session` with the organisation's API user opens a session cookie that lasts a shift (8 hours), and every write must also send the session's CSRF token. An organisation admin can sign the API user out everywhere before its 8 hours are up (Organisation settings > Integrations > Sign out everywhere): the next request on the old session gets `401` with `token_revoked`. Log in again and send the new session's CSRF token from then on: a CSRF token belongs to the session whose login issued it, and a write that sends the old session's token is refused (`401`, `csrf_token_invalid`). Rotas, staff files and punches change all day, while you read them too, through the REST API and TimeClockService alike: a record that is added or moves while you page a list shifts the offsets after it, so a read that ends with fewer distinct records than its `total` has missed some. Now and then the load balancer in front of Rosterly drops a connection part-way through an answer, on any call: the status and headers arrive and the body stops short. An answer whose body does not arrive in full has not reached you, whatever its status: make the call again (a write with the same `Idempotency-Key`, which Rosterly answers with the write it already made).",
  envPrefix: "ROSTERLY",
  clock: {
    epoch: "2025-10-25T23:00:00Z",
    checkpointSpacingS: 3600,
    secondsPerRequest: 1,
    format: "local",
    wireOffsetS: 0,
    zone: "Europe/London",
    zoneField: "venue_tz",
  },
  auth: {
    credentials: [
      {
        name: "username",
        prefix: "rly_api_",
        secret: false,
        description: "Login of the organisation's API user, created for your partner app under Organisation settings > Integrations > API users.",
      },
      { name: "password", prefix: "rly_pw_", secret: true, description: "Password of that API user; shown once, when the user is created." },
    ],
    mints: [{ kind: "login", path: "/api/v3/session", username: "username", password: "password", issues: "session", cookie: "rly_sid", ttlS: 28_800, csrfField: "csrf" }],
    present: [{ kind: "cookie", name: "rly_sid", value: { token: "session" }, csrf: { header: "X-Rosterly-CSRF" } }],
  },
  paging: { style: "offset", offsetParam: "offset", limitParam: "limit", defaultLimit: 50, maxLimit: 200, overMax: "error", total: true, next: "body" },
  envelope: { items: "items", total: "total", next: "next_offset" },
  errors: { wrap: "error", codeField: "type", messageField: "message", fieldErrorsField: "fields" },
  incremental: { style: "updated-since", param: "modified_since", op: ">=", field: "updated_at" },
  deletes: { mode: "flag", field: "deleted" },
  rateLimit: { limit: 300, cooldownS: 30, retryAfter: "seconds", headers: "ietf" },
  resources: [
    {
      name: "venue",
      plural: "venues",
      description: "A site your organisation trades from: a bar, restaurant, hotel, cafe or shop. Every shift and punch belongs to one venue.",
      id: { format: "prefixed", prefix: "ven_", width: 4 },
      count: 14,
      list: "/api/v3/venues",
      get: "/api/v3/venues/:id",
      incremental: true,
      fields: [
        { name: "id", type: "id", description: "Venue id (`ven_` and four digits).", gen: { gen: "id" } },
        { name: "name", type: "string", description: "Trading name shown on the rota and the time-clock tablet.", gen: { gen: "pick", values: VENUE_NAMES } },
        { name: "venue_type", type: "string", description: `Kind of venue: ${VENUE_TYPES.join(", ")}.`, gen: { gen: "pick", values: VENUE_TYPES } },
        { name: "venue_tz", type: "string", description: "IANA time zone of the venue (`Europe/London`, `America/Chicago`).", gen: { gen: "pick", values: ZONES } },
        { name: "target_headcount", type: "integer", description: "Staff the venue aims to have on the floor at its busiest hour.", gen: { gen: "int", min: 4, max: 30 } },
        { name: "geofence_radius_m", type: "integer", description: "How close to the venue, in metres, a phone must be to clock in from the app.", gen: { gen: "pick", values: [50, 100, 150, 250] } },
        { name: "created_at", type: "timestamp", description: "When the venue was added.", gen: { gen: "createdAt" } },
        { name: "updated_at", type: "timestamp", description: "Last change to the venue.", gen: { gen: "updatedAt" } },
      ],
    },
    {
      name: "worker",
      plural: "workers",
      person: true,
      description:
        "A member of staff who can be rostered. Workers belong to the organisation, not to one venue, and can be rostered at any of its venues. Each worker carries the first few manager notes on their file in `recent_notes`; the whole file is at the worker's notes list.",
      embeds: [{ field: "recent_notes", entity: "note", limit: 3, flag: "notes_truncated" }],
      id: { format: "prefixed", prefix: "wkr_", width: 6 },
      count: 260,
      list: "/api/v3/workers",
      get: "/api/v3/workers/:id",
      incremental: true,
      fields: [
        { name: "id", type: "id", description: "Worker id (`wkr_` and six digits).", gen: { gen: "id" } },
        { name: "first_name", type: "string", description: "First name.", gen: { gen: "firstName" } },
        { name: "last_name", type: "string", description: "Last name.", gen: { gen: "lastName" } },
        { name: "email", type: "string", description: "Where the rota and swap requests are sent.", gen: { gen: "email", from: ["first_name", "last_name"] } },
        {
          name: "mobile",
          type: "string",
          description: "Mobile number in E.164 form, for shift reminders; null when the worker gave none.",
          gen: { gen: "phone", format: "e164" },
          nullable: true,
          nullRate: 0.15,
        },
        { name: "home_venue_id", type: "id", description: "Venue the worker is usually rostered at.", gen: { gen: "ref", entity: "venue" } },
        { name: "primary_role", type: "string", description: `Role the worker is usually rostered as: ${ROLES.join(", ")}.`, gen: { gen: "pick", values: ROLES } },
        {
          name: "employment_type",
          type: "string",
          description: `How the worker is engaged: ${EMPLOYMENT.join(", ")}.`,
          gen: { gen: "pick", values: ["hourly", "hourly", "hourly", "salaried", "casual", "casual", "agency"] },
        },
        {
          name: "hourly_rate_minor",
          type: "integer",
          description: "Base hourly rate in minor units of the home venue's currency (pence, cents).",
          gen: { gen: "money", min: 1100, max: 2600, step: 25 },
        },
        { name: "is_active", type: "boolean", description: "Whether the worker can still be rostered; leavers stay on file with `false`.", gen: { gen: "bool", p: 0.9 } },
        { name: "created_at", type: "timestamp", description: "When the worker was added.", gen: { gen: "createdAt" } },
        { name: "updated_at", type: "timestamp", description: "Last change to the worker.", gen: { gen: "updatedAt" } },
      ],
    },
    {
      name: "shift",
      plural: "shifts",
      description: "One slot on a venue's rota: a role, a start time and a length, and the worker rostered on it.",
      id: { format: "prefixed", prefix: "shf_", width: 7 },
      count: 900,
      stages: ["draft", "published", "in_progress", "completed"],
      list: "/api/v3/shifts",
      get: "/api/v3/shifts/:id",
      incremental: true,
      fields: [
        { name: "id", type: "id", description: "Shift id (`shf_` and seven digits).", gen: { gen: "id" } },
        { name: "venue_id", type: "id", description: "Venue the shift is worked at.", gen: { gen: "ref", entity: "venue" } },
        { name: "venue_tz", type: "string", description: "IANA time zone of the shift's venue, copied onto the shift.", gen: { gen: "pick", values: ZONES } },
        { name: "worker_id", type: "id", description: "Worker rostered on the shift.", gen: { gen: "ref", entity: "worker" } },
        { name: "role", type: "string", description: `Role the shift is rostered as: ${ROLES.join(", ")}.`, gen: { gen: "pick", values: ROLES } },
        { name: "status", type: "string", description: "draft (only managers see it), published, in_progress (someone has clocked in) or completed.", gen: { gen: "stage" } },
        { name: "starts_at", type: "timestamp", description: "Rostered start of the shift.", gen: { gen: "pick", values: SHIFT_STARTS } },
        { name: "duration_minutes", type: "integer", description: "Rostered length of the shift in minutes, breaks included.", gen: { gen: "pick", values: [240, 300, 360, 420, 480, 540, 600] } },
        { name: "unpaid_break_minutes", type: "integer", description: "Unpaid break allowed within the shift.", gen: { gen: "pick", values: [0, 15, 30, 30, 45, 60] } },
        { name: "created_at", type: "timestamp", description: "When the shift was added to the rota.", gen: { gen: "createdAt" } },
        { name: "updated_at", type: "timestamp", description: "Last change to the shift (publishing, swaps and clock-ins included).", gen: { gen: "updatedAt" } },
      ],
    },
    {
      name: "punch",
      plural: "punches",
      description:
        "One time-clock event: a worker clocking in or out of a shift, or starting or ending a break, on the venue tablet or the app. While venues trade, their tablets keep sending punches in and the punch list keeps moving: a punch that moves while you page shifts the offsets after it, so a read that ends with fewer distinct punches than `total` has missed some. Read the list again from the start until a read holds them all.",
      id: { format: "prefixed", prefix: "pch_", width: 8 },
      count: 1800,
      list: "/api/v3/punches",
      get: "/api/v3/punches/:id",
      incremental: true,
      fields: [
        { name: "id", type: "id", description: "Punch id (`pch_` and eight digits).", gen: { gen: "id" } },
        { name: "shift_id", type: "id", description: "Shift the punch was made against.", gen: { gen: "ref", entity: "shift" } },
        { name: "worker_id", type: "id", description: "Worker who punched.", gen: { gen: "ref", entity: "worker" } },
        { name: "venue_tz", type: "string", description: "IANA time zone of the venue the punch was made at, copied onto the punch.", gen: { gen: "pick", values: ZONES } },
        {
          name: "kind",
          type: "string",
          description: `What the worker did: ${PUNCH_KINDS.join(", ")}.`,
          gen: { gen: "pick", values: ["clock_in", "clock_in", "clock_out", "clock_out", "break_start", "break_end"] },
        },
        {
          name: "source",
          type: "string",
          description: "Where the punch came from: kiosk (the venue tablet), mobile_app, or manager_edit (entered or corrected by a manager).",
          gen: { gen: "pick", values: ["kiosk", "kiosk", "kiosk", "mobile_app", "mobile_app", "manager_edit"] },
        },
        { name: "within_geofence", type: "boolean", description: "Whether the phone was inside the venue's geofence; always true for kiosk punches.", gen: { gen: "bool", p: 0.94 } },
        { name: "punched_at", type: "timestamp", description: "When the worker punched.", gen: { gen: "createdAt" } },
        { name: "updated_at", type: "timestamp", description: "Last change to the punch (a manager's correction, for example).", gen: { gen: "updatedAt" } },
      ],
    },
    {
      name: "note",
      plural: "notes",
      description: "A manager's note on a worker's file: a late arrival, a commendation, a change of availability.",
      id: { format: "prefixed", prefix: "nte_", width: 6 },
      count: { perParent: [1, 5] },
      parent: "worker",
      list: "/api/v3/workers/:parentId/notes",
      fields: [
        { name: "id", type: "id", description: "Note id (`nte_` and six digits).", gen: { gen: "id" } },
        { name: "worker_id", type: "id", description: "Worker the note is about.", gen: { gen: "parent" } },
        { name: "author", type: "string", description: "First name of the manager who wrote the note; the partner app's name for notes written through the API.", gen: { gen: "firstName" } },
        { name: "body", type: "string", description: "Text of the note.", gen: { gen: "sentence", words: [6, 24] } },
        { name: "visibility", type: "string", description: `Who can read the note: ${VISIBILITY.join(", ")}.`, gen: { gen: "pick", values: ["managers", "managers", "worker_and_managers"] } },
        { name: "created_at", type: "timestamp", description: "When the note was written.", gen: { gen: "createdAt" } },
        { name: "updated_at", type: "timestamp", description: "Last edit.", gen: { gen: "updatedAt" } },
      ],
    },
  ],
  writes: [
    {
      name: "createNote",
      method: "POST",
      path: "/api/v3/workers/:parentId/notes",
      entity: "note",
      op: "create",
      parentFrom: ":parentId",
      errors: "http-422",
      idempotency: { in: "header", name: "Idempotency-Key", windowS: 86_400 },
      description:
        "Adds a note to a worker's file. The note is shown on the worker's profile in the manager app straight away; notes with `worker_and_managers` visibility also appear in the worker's own app.",
      inputs: [
        { name: "body", type: "string", description: "Text of the note.", required: true, maxLength: 2000 },
        { name: "visibility", type: "string", description: "Who can read the note.", required: true, oneOf: VISIBILITY },
        { name: "author", type: "string", description: "Name shown as the note's author.", maxLength: 80 },
      ],
    },
    {
      name: "swapShift",
      method: "POST",
      path: "/api/v3/shifts/:id/swap",
      entity: "shift",
      op: "update",
      errors: "http-422",
      idempotency: { in: "header", name: "Idempotency-Key", windowS: 86_400 },
      successStatus: 200,
      description: "Hands a shift to another worker as a manager-approved swap: the shift keeps its venue, role and times, its `updated_at` moves, and the new worker is notified.",
      inputs: [{ name: "worker_id", type: "string", description: "Worker who takes the shift over.", required: true, ref: "worker" }],
    },
  ],
  gateways: [
    {
      style: "soap11",
      path: "/soap/TimeClock.svc",
      service: "TimeClockService",
      namespace: "urn:rosterly:timeclock:2016",
      operations: [
        { name: "ListPunches", action: "list", resource: "punch", description: "Pages through clock punches, for the payroll bureaus that still poll the terminal service." },
        { name: "GetPunch", action: "get", resource: "punch", description: "Reads one punch." },
        { name: "ListShifts", action: "list", resource: "shift", description: "Pages through rostered shifts." },
        { name: "SwapShift", action: "write", write: "swapShift", description: "Hands a shift to another worker." },
      ],
    },
  ],
  faults: [
    { kind: "token-revoked", id: "rl-token-revoked", afterRequests: 12, status: 401 },
    { kind: "rate-limit-window", id: "rl-burst-429", afterRequests: 15, cooldownS: 5, retryAfter: "seconds" },
    // The organisation's quota is shared with other integrations of the same API user: it can run out well before this app has sent its 300.
    { kind: "rate-limit-window", id: "rl-shared-quota-429", afterRequests: 140, cooldownS: 1, retryAfter: "seconds" },
    // The other integration of the same API user bursts early in the night: Rosterly throttles every caller for a second, whatever this app has sent.
    { kind: "rate-limit-window", id: "rl-shared-burst-429", afterRequests: 20, cooldownS: 1, retryAfter: "seconds" },
    { kind: "maintenance", id: "rl-maintenance-503", afterRequests: 6, count: 2, retryAfterS: 60 },
    { kind: "error-on-page", id: "rl-punches-502-page-3", resource: "punch", page: 2, times: 1, status: 502 },
    { kind: "error-on-page", id: "rl-shifts-500-page-3", resource: "shift", page: 2, times: 2, status: 500 },
    { kind: "page-drift", id: "rl-punches-drift", afterRequests: 2, path: "/api/v3/punches", resource: "punch", inserts: 6 },
    { kind: "page-drift", id: "rl-shifts-drift", afterRequests: 1, path: "/api/v3/shifts", resource: "shift", inserts: 60 },
    { kind: "page-drift", id: "rl-workers-drift", afterRequests: 1, path: "/api/v3/workers", resource: "worker", inserts: 60 },
    // A proxy between the night job and Rosterly drops a connection part-way through an answer: the status and headers arrive, the body is cut off.
    { kind: "connection-reset", id: "rl-fanout-reset", afterRequests: 8, count: 1 },
    { kind: "slow", id: "rl-slow-shifts", afterRequests: 1, path: "/api/v3/shifts", count: 2, delayMs: 1500 },
    { kind: "schema-change", id: "rl-starts-at-renamed", resource: "shift", field: "starts_at", renameTo: "start_time", fromCheckpoint: 3 },
    { kind: "error-after-commit", id: "rl-note-504-after-commit", write: "createNote", nth: 1, status: 504 },
    // Head office signs the API user out everywhere while the cutover files its notes: counted on the notes of wkr_000260
    // (the worker of the first punch in the repeated hour on the task's seed), so it lands on the second request to that file,
    // after the first note's lost answer when notes are filed in punch order.
    { kind: "token-revoked", id: "rl-signed-out-mid-notes", afterRequests: 1, path: "/api/v3/workers/wkr_000260/notes", status: 401 },
    // And again later in the same night, on the file of wkr_000026, who punched twice in the repeated hour on the task's seed:
    // the second request to that file meets a signed-out session whatever order the notes are filed in.
    { kind: "token-revoked", id: "rl-signed-out-again-mid-notes", afterRequests: 1, path: "/api/v3/workers/wkr_000026/notes", status: 401 },
    { kind: "error-after-commit", id: "rl-swap-502-after-commit", write: "swapShift", nth: 1, status: 502 },
    // Managers are still closing last week's rota while the payroll job reads it through TimeClockService: at the second call to
    // the service the newest shifts move to the head of ListShifts, so a single offset crawl of it meets some shifts twice and misses as many.
    { kind: "page-drift", id: "rl-soap-shifts-drift", afterRequests: 1, path: "/soap/TimeClock.svc", resource: "shift", inserts: 60 },
    // The proxy drops a connection part-way through an answer while the notes are filed: counted on the notes of wkr_000164
    // (the fourth of nine long days on task-0045's seed), the answer cut off is the call after that file's first one, so a
    // note's answer (the note already filed) when the notes are filed one after another, whatever order they are filed in.
    { kind: "connection-reset", id: "rl-notes-answer-reset", afterRequests: 1, path: "/api/v3/workers/wkr_000164/notes", count: 1 },
    // At the cutover the venues are still trading and their tablets still sending punches in: the punch list keeps moving
    // under a crawl for its first thirty-odd pages (every fifth page read, the newest punches move to the head of the list),
    // so a whole read of it can come back short of its `total` several times in a row before one holds every punch.
    { kind: "page-drift", id: "rl-punches-cutover-drift-1", afterRequests: 3, path: "/api/v3/punches", resource: "punch", inserts: 4 },
    { kind: "page-drift", id: "rl-punches-cutover-drift-2", afterRequests: 8, path: "/api/v3/punches", resource: "punch", inserts: 4 },
    { kind: "page-drift", id: "rl-punches-cutover-drift-3", afterRequests: 13, path: "/api/v3/punches", resource: "punch", inserts: 4 },
    { kind: "page-drift", id: "rl-punches-cutover-drift-4", afterRequests: 18, path: "/api/v3/punches", resource: "punch", inserts: 4 },
    { kind: "page-drift", id: "rl-punches-cutover-drift-5", afterRequests: 23, path: "/api/v3/punches", resource: "punch", inserts: 4 },
    { kind: "page-drift", id: "rl-punches-cutover-drift-6", afterRequests: 28, path: "/api/v3/punches", resource: "punch", inserts: 4 },
  ],
  lies: [
    {
      kind: "time-format",
      id: "rl-times-said-utc",
      says: "iso",
      discover:
        "No timestamp ends in `Z` or carries an offset: `punched_at` and the rest are the venue's wall-clock time in the record's `venue_tz` (the organisation's Europe/London for workers and notes). On 26 October two punches can both read `01:30:00` an hour apart.",
      changelog: "All timestamps are now returned in UTC (ISO 8601 with a `Z` suffix), whatever the venue's time zone.",
    },
    {
      kind: "page-size-cap",
      id: "rl-limit-500",
      says: 500,
      discover: "`limit` above 200 is refused with a 400 naming the cap of 200; `limit=200` is the largest page any list serves.",
      changelog: "List endpoints now return up to 500 records per page (`limit=500`).",
    },
    {
      kind: "rate-window",
      id: "rl-quota-1200",
      says: { limit: 1200, cooldownS: 60 },
      discover: "An app is throttled after 300 requests, not 1,200: the RateLimit headers count down from 300, and Retry-After on the 429 asks for 30 seconds.",
      changelog: "The request quota for partner apps is raised to 1,200 requests per window; a throttled app waits 60 seconds.",
    },
  ],
  timeline: [
    {
      checkpoint: 1,
      mutations: [
        { op: "create", entity: "punch", count: 40 },
        { op: "advance-stage", entity: "shift", count: 20 },
        { op: "update", entity: "shift", count: 6, fields: ["worker_id"] },
        { op: "create", entity: "note", count: 4 },
      ],
    },
    {
      checkpoint: 2,
      mutations: [
        { op: "create", entity: "punch", count: 36 },
        { op: "update", entity: "punch", count: 5, fields: ["source", "within_geofence"] },
        { op: "advance-stage", entity: "shift", count: 15 },
        { op: "create", entity: "shift", count: 8 },
        { op: "update", entity: "worker", count: 4, fields: ["mobile", "primary_role"] },
        { op: "delete", entity: "punch", count: 2 },
      ],
    },
    {
      checkpoint: 3,
      mutations: [
        { op: "create", entity: "punch", count: 36 },
        { op: "update", entity: "punch", count: 5, fields: ["source", "within_geofence"] },
        { op: "advance-stage", entity: "shift", count: 15 },
        { op: "update", entity: "shift", count: 5, fields: ["worker_id", "unpaid_break_minutes"] },
        { op: "delete", entity: "shift", count: 3 },
        { op: "create", entity: "note", count: 3 },
      ],
    },
    {
      checkpoint: 4,
      mutations: [
        { op: "create", entity: "punch", count: 30 },
        { op: "advance-stage", entity: "shift", count: 25 },
        { op: "update", entity: "venue", count: 2, fields: ["target_headcount"] },
        { op: "create", entity: "worker", count: 3 },
        { op: "delete", entity: "worker", count: 1 },
        { op: "delete", entity: "punch", count: 2 },
      ],
    },
    {
      // The rota is tidied: managers delete shifts entered by mistake, and HR deletes notes written on the wrong file.
      checkpoint: 5,
      mutations: [
        { op: "delete", entity: "shift", count: 60 },
        { op: "delete", entity: "note", count: 6 },
      ],
    },
  ],
});
