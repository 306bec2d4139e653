import { defineVendor } from "../schema/define.ts";

/** PayGrade: a payroll bureau whose whole integration surface is one SOAP 1.1 gateway. */
export default defineVendor({
  id: "paygrade",
  name: "PayGrade",
  category: "payroll",
  summary:
    "PayGrade runs payroll for staffing agencies and their temporary workers: employees, their assignments to client sites, and the pay runs that settle them. Integrations use the PayrollGateway SOAP service, unchanged in shape since 2011. The gateway serves the live payroll: a list can change while it is being paged, as payroll staff key changes in, and on a busy night an answer can break off before it is complete.",
  envPrefix: "PAYGRADE",
  clock: { epoch: "2024-03-04T07:00:00Z", checkpointSpacingS: 7 * 86_400, secondsPerRequest: 2, format: "iso_offset" },
  auth: {
    credentials: [{ name: "app_token", prefix: "pgat_", secret: true, description: "Bureau application token, sent on every call." }],
    present: [{ kind: "header", name: "X-PG-App-Token", value: { credential: "app_token" } }],
  },
  paging: { style: "offset", offsetParam: "start", limitParam: "count", defaultLimit: 50, maxLimit: 100, overMax: "error", total: true, next: "none" },
  envelope: { items: "records", total: "total_records" },
  errors: { codeField: "code", messageField: "message", rpcOkField: "ok" },
  incremental: { style: "updated-since", param: "changedSince", op: ">", field: "last_changed" },
  deletes: { mode: "tombstones", entityField: "record_type", deletedAtField: "deleted_at", incremental: true },
  rateLimit: { limit: 240, cooldownS: 20, retryAfter: "seconds", headers: "x-ratelimit" },
  resources: [
    {
      name: "employee",
      plural: "employees",
      person: true,
      description: "A worker on the bureau's payroll.",
      id: { format: "prefixed", prefix: "emp_", width: 5 },
      idField: "employee_id",
      count: 140,
      incremental: true,
      fields: [
        { name: "employee_id", type: "id", description: "Payroll number.", gen: { gen: "id" } },
        { name: "given_name", type: "string", description: "Given name.", gen: { gen: "firstName" } },
        { name: "family_name", type: "string", description: "Family name.", gen: { gen: "lastName" } },
        { name: "email", type: "string", description: "Email for payslips.", gen: { gen: "email", from: ["given_name", "family_name"] } },
        { name: "phone", type: "string", description: "Mobile number, E.164.", gen: { gen: "phone", format: "e164" }, nullable: true, nullRate: 0.15 },
        { name: "pay_basis", type: "string", description: "hourly or salaried.", gen: { gen: "pick", values: ["hourly", "hourly", "hourly", "salaried"] } },
        { name: "tax_region", type: "string", description: "Where payroll tax is withheld.", gen: { gen: "location" } },
        { name: "status", type: "string", description: "active, on_leave or terminated.", gen: { gen: "pick", values: ["active", "active", "active", "active", "on_leave", "terminated"] } },
        { name: "hired_at", type: "timestamp", description: "Start of employment, in the branch's offset.", gen: { gen: "createdAt" } },
        { name: "last_changed", type: "timestamp", description: "Last change to the record, in the branch's offset.", gen: { gen: "updatedAt" } },
      ],
    },
    {
      name: "assignment",
      plural: "assignments",
      description: "An employee's placement at a client site, with the rates payroll settles it at.",
      id: { format: "prefixed", prefix: "asg_", width: 6 },
      idField: "assignment_id",
      count: 260,
      incremental: true,
      fields: [
        { name: "assignment_id", type: "id", description: "Assignment number.", gen: { gen: "id" } },
        { name: "employee_id", type: "id", description: "Employee assigned.", gen: { gen: "ref", entity: "employee" } },
        { name: "client_site", type: "string", description: "Client company and site, as invoiced (it may hold commas).", gen: { gen: "company" } },
        { name: "role_title", type: "string", description: "Role worked.", gen: { gen: "jobTitle" } },
        { name: "pay_rate", type: "integer", description: "Hourly pay rate, in cents.", gen: { gen: "money", min: 1500, max: 6500, step: 25 } },
        { name: "bill_rate", type: "integer", description: "Hourly bill rate charged to the client, in cents.", gen: { gen: "money", min: 2200, max: 9900, step: 25 } },
        { name: "state", type: "string", description: "open, ended or cancelled.", gen: { gen: "pick", values: ["open", "open", "ended", "cancelled"] } },
        { name: "starts_at", type: "timestamp", description: "First shift, in the site's offset.", gen: { gen: "createdAt" } },
        { name: "last_changed", type: "timestamp", description: "Last change to the record.", gen: { gen: "updatedAt" } },
      ],
    },
    {
      name: "payrun",
      plural: "payruns",
      description: "A weekly pay run: the period it settles and where it stands.",
      id: { format: "int", start: 9001 },
      idField: "payrun_id",
      count: 30,
      incremental: true,
      fields: [
        { name: "payrun_id", type: "id", description: "Pay run number.", gen: { gen: "id" } },
        { name: "period_label", type: "string", description: "Pay period as printed on payslips.", gen: { gen: "pick", values: ["Week 1", "Week 2", "Week 3", "Week 4", "Week 5"] } },
        { name: "gross_total", type: "integer", description: "Gross pay across the run, in cents.", gen: { gen: "money", min: 1_500_000, max: 9_000_000, step: 100 } },
        { name: "headcount", type: "integer", description: "Employees paid in the run.", gen: { gen: "int", min: 20, max: 140 } },
        { name: "state", type: "string", description: "draft, approved or paid.", gen: { gen: "pick", values: ["paid", "paid", "paid", "approved", "draft"] } },
        { name: "created_at", type: "timestamp", description: "When the run was opened.", gen: { gen: "createdAt" } },
        { name: "last_changed", type: "timestamp", description: "Last change to the run.", gen: { gen: "updatedAt" } },
      ],
    },
  ],
  writes: [
    {
      name: "updateAssignment",
      method: "POST",
      entity: "assignment",
      op: "update",
      errors: "rpc-200",
      successStatus: 200,
      idempotency: { in: "body", field: "request_id", windowWrites: 60 },
      description: "Changes an assignment's rates or state. A request_id makes the call safe to retry within the next 60 writes.",
      inputs: [
        { name: "pay_rate", type: "integer", description: "New hourly pay rate, in cents." },
        { name: "bill_rate", type: "integer", description: "New hourly bill rate, in cents." },
        { name: "state", type: "string", description: "New state.", oneOf: ["open", "ended", "cancelled"] },
      ],
    },
    {
      name: "createAssignment",
      method: "POST",
      entity: "assignment",
      op: "create",
      errors: "rpc-200",
      successStatus: 200,
      idempotency: { in: "body", field: "request_id", windowWrites: 60 },
      description: "Places an employee at a client site. A request_id makes the call safe to retry within the next 60 writes.",
      inputs: [
        { name: "employee_id", type: "string", description: "Employee to place.", required: true, ref: "employee" },
        { name: "client_site", type: "string", description: "Client company and site.", required: true, maxLength: 120 },
        { name: "role_title", type: "string", description: "Role worked.", required: true, maxLength: 80 },
        { name: "pay_rate", type: "integer", description: "Hourly pay rate, in cents.", required: true },
        { name: "bill_rate", type: "integer", description: "Hourly bill rate, in cents.", required: true },
      ],
    },
  ],
  gateways: [
    {
      style: "soap11",
      path: "/services/PayrollGateway.asmx",
      service: "PayrollGateway",
      namespace: "http://paygrade.example/payroll/2011/",
      operations: [
        { name: "ListEmployees", action: "list", resource: "employee", description: "Pages through employees, optionally only those changed since a time." },
        { name: "GetEmployee", action: "get", resource: "employee", description: "Reads one employee by payroll number." },
        { name: "ListAssignments", action: "list", resource: "assignment", description: "Pages through assignments, optionally only those changed since a time." },
        { name: "GetAssignment", action: "get", resource: "assignment", description: "Reads one assignment." },
        { name: "ListPayRuns", action: "list", resource: "payrun", description: "Pages through pay runs." },
        { name: "ListDeletions", action: "feed", description: "Pages through deleted employees, assignments and pay runs, with the time of deletion." },
        { name: "UpdateAssignment", action: "write", write: "updateAssignment", description: "Changes an assignment's rates or state." },
        { name: "CreateAssignment", action: "write", write: "createAssignment", description: "Places an employee at a client site." },
      ],
    },
  ],
  faults: [
    { kind: "error-on-page", id: "pg-assignments-503-page-3", resource: "assignment", page: 2, times: 2, status: 503 },
    { kind: "maintenance", id: "pg-bureau-maintenance", afterRequests: 8, count: 2, retryAfterS: 90 },
    { kind: "rate-limit-window", id: "pg-burst-429", afterRequests: 6, cooldownS: 4, retryAfter: "seconds" },
    { kind: "rate-limit-window", id: "pg-early-429", afterRequests: 2, cooldownS: 2, retryAfter: "seconds" },
    { kind: "error-after-commit", id: "pg-update-504-after-commit", write: "updateAssignment", nth: 1, status: 504 },
    // Payroll Ops at work while a job reads: changed assignments move to the head of the list mid-crawl (the total stays the same).
    { kind: "page-drift", id: "pg-assignments-drift", afterRequests: 5, resource: "assignment", inserts: 25 },
    // The bureau's read cache: an assignment read again is answered from the first answer (Age, Warning: 110) unless the call revalidates.
    { kind: "stale-read", id: "pg-assignment-reads-cached", afterRequests: 0, resource: "assignment" },
    // Payroll Ops keying a pay uplift in while the night's job reads: the assignments list moves under the crawl four times (the total stays the same).
    { kind: "page-drift", id: "pg-uplift-drift-1", afterRequests: 1, resource: "assignment", inserts: 30 },
    { kind: "page-drift", id: "pg-uplift-drift-2", afterRequests: 2, resource: "assignment", inserts: 30 },
    { kind: "page-drift", id: "pg-uplift-drift-3", afterRequests: 3, resource: "assignment", inserts: 30 },
    { kind: "page-drift", id: "pg-uplift-drift-4", afterRequests: 4, resource: "assignment", inserts: 30 },
    // The bureau's network on a busy night: one answer breaks off part-way through its body (status and headers arrive).
    { kind: "connection-reset", id: "pg-busy-night-reset", afterRequests: 2, count: 1 },
  ],
  lies: [
    {
      kind: "page-size-cap",
      id: "pg-count-500",
      says: 500,
      discover: "A count above 100 is refused with a client fault whose message names the largest count accepted.",
      changelog: "List operations return up to 500 records per call.",
    },
    {
      kind: "time-format",
      id: "pg-times-said-utc",
      says: "iso",
      discover: "Timestamps carry the branch's own UTC offset (`+01:00`, `-05:00`, ...), not `Z`: compare them as instants, never as text.",
      changelog: "All timestamps are now normalised to UTC.",
    },
    {
      kind: "rate-window",
      id: "pg-quota-1000",
      says: { limit: 1000, cooldownS: 5 },
      discover: "Calls are refused with 429 after 240 in a window, as the X-RateLimit headers count down from 240, and Retry-After asks for 20 seconds.",
      changelog: "Bureau applications may make 1,000 calls per window.",
    },
    {
      kind: "param-name",
      id: "pg-since-element",
      param: "changedSince",
      says: "modifiedSince",
      discover:
        "`modifiedSince` is not an element of the list operations: it is ignored, and the list comes back whole (its `total_records` does not shrink). The live service description (`?wsdl`) names the filter `changedSince`.",
      changelog: "The incremental filter of list operations is now `modifiedSince`, matching the payroll export files.",
    },
  ],
  timeline: [
    {
      checkpoint: 1,
      mutations: [
        { op: "create", entity: "employee", count: 5 },
        { op: "update", entity: "employee", count: 8, fields: ["status", "phone"] },
        { op: "create", entity: "assignment", count: 10 },
        { op: "update", entity: "assignment", count: 12, fields: ["pay_rate", "bill_rate"] },
        { op: "delete", entity: "assignment", count: 3 },
        { op: "create", entity: "payrun", count: 1 },
      ],
    },
    {
      checkpoint: 2,
      mutations: [
        { op: "update", entity: "assignment", count: 9, fields: ["state"] },
        { op: "delete", entity: "employee", count: 2 },
        { op: "update", entity: "payrun", count: 1, fields: ["state"] },
        { op: "create", entity: "payrun", count: 1 },
        { op: "delete", entity: "payrun", count: 1 },
      ],
    },
    {
      checkpoint: 3,
      mutations: [
        { op: "create", entity: "employee", count: 3 },
        { op: "create", entity: "assignment", count: 6 },
        { op: "delete", entity: "assignment", count: 2 },
        { op: "update", entity: "employee", count: 4, fields: ["tax_region"] },
      ],
    },
    {
      // The yearly rate review: every assignment's pay and bill rates change (the count is more
      // than there are live assignments).
      checkpoint: 4,
      mutations: [{ op: "update", entity: "assignment", count: 1_000, fields: ["pay_rate", "bill_rate"] }],
    },
    {
      // A week after the review: a few phone numbers change and some assignments are deleted, each
      // of them last changed by the review.
      checkpoint: 5,
      mutations: [
        { op: "update", entity: "employee", count: 3, fields: ["phone"] },
        { op: "delete", entity: "assignment", count: 3 },
      ],
    },
    {
      // A week later: branches key in two assignments' ends late, dated when the placements ended
      // (before anything the previous week showed), and two phone numbers change.
      checkpoint: 6,
      mutations: [
        { op: "update", entity: "employee", count: 2, fields: ["phone"] },
        { op: "delete", entity: "assignment", count: 2, recorded: "backdated" },
      ],
    },
    {
      // A week later: PayGrade's helpdesk puts back an employee and an assignment a branch deleted
      // by mistake weeks ago (live again, changed when put back, gone from the deletions list),
      // and one phone number changes.
      checkpoint: 7,
      mutations: [
        { op: "update", entity: "employee", count: 1, fields: ["phone"] },
        { op: "restore", entity: "employee", count: 1 },
        { op: "restore", entity: "assignment", count: 1 },
      ],
    },
    {
      // A week later: the branches key in a pay award a week late, dated when it took effect (before
      // anything the previous week showed): every assignment's pay and bill rates change (the count
      // is more than there are assignments old enough to take it).
      checkpoint: 8,
      mutations: [{ op: "update", entity: "assignment", count: 1_000, fields: ["pay_rate", "bill_rate"], recorded: "backdated" }],
    },
    {
      // A week after the award: two phone numbers change and some assignments are deleted, each of
      // them last changed by the award.
      checkpoint: 9,
      mutations: [
        { op: "update", entity: "employee", count: 2, fields: ["phone"] },
        { op: "delete", entity: "assignment", count: 3 },
      ],
    },
    {
      // A week later: a pay uplift changes every assignment's pay and bill rates (the count is more
      // than there are live assignments).
      checkpoint: 10,
      mutations: [{ op: "update", entity: "assignment", count: 1_000, fields: ["pay_rate", "bill_rate"] }],
    },
    {
      // A week after the uplift: a client's contract ends and forty of its placements are deleted,
      // each of them last changed by the uplift, and one phone number changes.
      checkpoint: 11,
      mutations: [
        { op: "update", entity: "employee", count: 1, fields: ["phone"] },
        { op: "delete", entity: "assignment", count: 40 },
      ],
    },
  ],
});
