import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { objects } from "../shared/rows.ts";

/** One row of mapping.json, as the ticket defines it. */
interface MappingRow {
  hirewire_id: unknown;
  talentforge_id: unknown;
  action: unknown;
}

/** One row of notes.json. */
interface NoteRow {
  hirewire_id: unknown;
  talentforge_id: unknown;
  note_id: unknown;
}

/** The fault the first scenario arms (declared in declarations/vendors/talentforge.ts): the second create is stored, then answered 500. */
export const CREATE_500 = "tf-create-500-after-commit";
const NOTE_AUTHOR = "HireWire migration";
const noteBody = (id: string, stage: unknown) => `Migrated from HireWire candidate ${id} (stage: ${String(stage)}).`;

/** The identity the two vendors share. */
const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();
const candidates = (s: Snapshot | undefined): SnapshotRecord[] => s?.entities.candidate ?? [];
const live = (s: Snapshot | undefined) => candidates(s).filter((r) => !r.deleted);
/** Rows of an output file that are objects (a judge never throws on odd output). */
const few = (xs: unknown[]) => `${xs.slice(0, 4).join(", ")}${xs.length > 4 ? ", ..." : ""}`;

/** Live target candidates per email key. */
function liveByEmail(s: Snapshot | undefined): Map<string, SnapshotRecord[]> {
  const m = new Map<string, SnapshotRecord[]>();
  for (const r of live(s)) m.set(emailKey(r.record.email), [...(m.get(emailKey(r.record.email)) ?? []), r]);
  return m;
}

/**
 * The checks every migrate run answers to.
 * - `start`: the target before the scenario's first migrate run (what already existed)
 * - `legacy`: the legacy role when this run read it; `people`: every legacy person the scenario ever showed, by id
 * - `target`: the target after this run
 */
function judgeMapping(c: CheckRecorder, raw: MappingRow[], opts: { start: Snapshot; legacy: Snapshot; people: Map<string, SnapshotRecord>; target: Snapshot }): void {
  const rows = objects(raw);
  const liveLegacy = live(opts.legacy);
  const legacyById = new Map(liveLegacy.map((r) => [r.id, r]));
  const ids = rows.map((r) => String(r?.hirewire_id));
  const seen = new Set<string>();
  const dup = ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  const missing = liveLegacy.filter((r) => !seen.has(r.id)).map((r) => r.id);
  const extra = ids.filter((id) => !legacyById.has(id));
  const numeric = rows.every((r) => typeof r?.hirewire_id === "number");
  const sorted = rows.every((r, i) => i === 0 || Number(rows[i - 1].hirewire_id) < Number(r.hirewire_id));
  c.check("mapping_covers_live_legacy_candidates", !missing.length && !extra.length && !dup.length && numeric && sorted, {
    basis: { ticket: "one row per live HireWire candidate, sorted by `hirewire_id`" },
    pass: 2,
    mandatory: true,
    detail: [
      `${liveLegacy.length} live HireWire candidates, ${rows.length} rows`,
      missing.length && `missing ${missing.length} (${few(missing)})`,
      extra.length && `${extra.length} rows for no live candidate (${few(extra)})`,
      dup.length && `duplicated ${few(dup)}`,
      !numeric && "hirewire_id is not a number",
      !sorted && "not sorted by hirewire_id",
    ]
      .filter(Boolean)
      .join("; "),
  });

  const targetById = new Map(candidates(opts.target).map((r) => [r.id, r]));
  const wrongTarget: string[] = [];
  for (const row of rows) {
    const person = legacyById.get(String(row?.hirewire_id));
    if (!person) continue;
    const t = targetById.get(String(row.talentforge_id));
    if (!t) wrongTarget.push(`${person.id}->${String(row.talentforge_id)} (no such record)`);
    else if (t.deleted) wrongTarget.push(`${person.id}->${t.id} (deleted)`);
    else if (emailKey(t.record.email) !== emailKey(person.record.email)) wrongTarget.push(`${person.id}->${t.id} (other email)`);
  }
  c.check("mapping_targets_live_record_with_same_email", !wrongTarget.length, {
    basis: { ticket: "each live HireWire person maps to exactly one live TalentForge record with their email" },
    pass: 2,
    mandatory: true,
    detail: wrongTarget.length ? `${wrongTarget.length} rows point elsewhere: ${few(wrongTarget)}` : "every row points at a live record with the candidate's email",
  });

  const before = liveByEmail(opts.start);
  const after = liveByEmail(opts.target);
  const wrongCount: string[] = [];
  for (const p of liveLegacy) {
    const k = emailKey(p.record.email);
    const want = Math.max(1, before.get(k)?.length ?? 0);
    const have = after.get(k)?.length ?? 0;
    if (have !== want) wrongCount.push(`${p.id}: ${have} live records`);
  }
  c.check("one_live_target_record_per_person", !wrongCount.length, {
    basis: { ticket: "each live HireWire person maps to exactly one live TalentForge record with their email, and nobody exists twice" },
    pass: 2,
    mandatory: true,
    detail: wrongCount.length ? `${wrongCount.length} people without exactly one live TalentForge record: ${few(wrongCount)}` : `${liveLegacy.length} people, one live TalentForge record each`,
  });

  const changed = candidates(opts.start)
    .filter((r) => {
      const now = targetById.get(r.id);
      return !now || now.deleted !== r.deleted || JSON.stringify(now.record) !== JSON.stringify(r.record);
    })
    .map((r) => r.id);
  c.check("existing_target_records_untouched", !changed.length, {
    basis: { ticket: "Never change a TalentForge record that existed before the migration." },
    pass: 2,
    mandatory: true,
    detail: changed.length ? `${changed.length} TalentForge records that existed before were changed (${few(changed)})` : "records that existed before are unchanged",
  });

  const startIds = new Set(candidates(opts.start).map((r) => r.id));
  const created = candidates(opts.target).filter((r) => !startIds.has(r.id));
  const peopleByEmail = new Map<string, SnapshotRecord>();
  for (const p of opts.people.values()) if (!peopleByEmail.has(emailKey(p.record.email))) peopleByEmail.set(emailKey(p.record.email), p);
  const badIdentity: string[] = [];
  const badTitle: string[] = [];
  for (const t of created) {
    const p = peopleByEmail.get(emailKey(t.record.email));
    if (!p) {
      badIdentity.push(`${t.id} (no HireWire candidate has ${String(t.record.email)})`);
      continue;
    }
    if (t.record.given_name !== p.record.name || t.record.family_name !== p.record.surname || t.record.email !== p.record.email) badIdentity.push(`${t.id} (HireWire ${p.id})`);
    if ((p.record.role ?? null) !== (t.record.current_title ?? null)) badTitle.push(`${t.id} (HireWire ${p.id})`);
  }
  c.check("created_records_carry_legacy_identity", created.length > 0 && !badIdentity.length, {
    basis: { ticket: "Otherwise create one (`created`) with `given_name` from HireWire's `name`, `family_name` from `surname`, `email` as HireWire has it, and `current_title` from `role`." },
    pass: 2,
    mandatory: true,
    detail: badIdentity.length
      ? `${badIdentity.length} of ${created.length} created records do not carry a HireWire candidate's names and email: ${few(badIdentity)}`
      : `${created.length} created records carry their candidate's names and email`,
  });
  c.check("created_records_carry_role_as_title", created.length > 0 && !badTitle.length, {
    basis: { ticket: "Otherwise create one (`created`) with `given_name` from HireWire's `name`, `family_name` from `surname`, `email` as HireWire has it, and `current_title` from `role`." },
    detail: badTitle.length ? `${badTitle.length} created records without the HireWire role as current_title: ${few(badTitle)}` : `${created.length} created records carry the role`,
  });

  const wrongAction: string[] = [];
  for (const row of rows) {
    if (!legacyById.has(String(row?.hirewire_id))) continue;
    const want = startIds.has(String(row.talentforge_id)) ? "matched" : "created";
    if (row.action !== want) wrongAction.push(`${String(row.hirewire_id)} is ${String(row.action)}, not ${want}`);
  }
  c.check("actions_say_what_the_migration_did", !wrongAction.length, {
    basis: { ticket: "`action` is `created` when the migration created the TalentForge record, in this run or an earlier one." },
    detail: wrongAction.length ? `${wrongAction.length} wrong actions: ${few(wrongAction)}` : "matched and created rows are labelled as such",
  });
}

/** Hard gate: the legacy system is only ever read. */
function legacyReadOnly(c: CheckRecorder, e: ScenarioEvidence): void {
  const traffic = e.requests.legacy ?? [];
  if (!traffic.length) return;
  const writes = traffic.filter((r) => r.method !== "GET" && r.method !== "HEAD");
  c.check("legacy_read_only", !writes.length, {
    basis: { ticket: "Nothing is ever written to HireWire, neither during the migration nor after it." },
    pass: 0,
    fail: -1,
    mandatory: true,
    level: "l2",
    detail: writes.length ? `${writes.length} writes to HireWire (first: #${writes[0].seq} ${writes[0].method} ${writes[0].path})` : `${traffic.length} HireWire requests, all reads`,
  });
}

/** Creates and notes sent to the target, and whether each carried an idempotency key. */
function targetWrites(e: ScenarioEvidence, path: (p: string) => boolean) {
  return (e.requests.target ?? []).filter((r) => r.method === "POST" && path(r.path));
}
const isCreate = (p: string) => p === "/rest/candidates";
const isNote = (p: string) => /^\/rest\/candidates\/[^/]+\/notes$/.test(p);

function keysOnWrites(c: CheckRecorder, name: string, writes: ReturnType<typeof targetWrites>): void {
  if (!writes.length) return;
  const bare = writes.filter((r) => !r.idempotencyKey);
  c.check(name, !bare.length, {
    basis: { ticket: "Creates must be safe to retry." },
    level: "l2",
    detail: bare.length ? `${bare.length} of ${writes.length} writes without an Idempotency-Key (first #${bare[0].seq})` : `${writes.length} writes, each with an Idempotency-Key`,
  });
}

/** Every live legacy person a scenario's snapshots showed, by id. */
function peopleOf(e: ScenarioEvidence): Map<string, SnapshotRecord> {
  const people = new Map<string, SnapshotRecord>();
  for (const shot of Object.values(e.snapshots)) for (const r of live(shot.legacy)) people.set(r.id, r);
  return people;
}

export default defineTask({
  id: "task-0005",
  title: "HireWire to TalentForge: migrate the candidate pool without losing or doubling anyone",
  kind: "migrate",
  roles: { legacy: { vendor: "hirewire", checkpoint: 1 }, target: { vendor: "talentforge", checkpoint: 1 } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "cross_vendor_identity_matching",
  entry: { command: ["node", "src/main.ts"], subcommands: ["migrate", "annotate"] },
  outputs: {
    "mapping.json": jsonRows(z.looseObject({ hirewire_id: z.number().int(), talentforge_id: z.string(), action: z.enum(["matched", "created"]) })),
    "notes.json": jsonRows(z.looseObject({ hirewire_id: z.number().int(), talentforge_id: z.string(), note_id: z.string() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      name: "migrate_and_rerun",
      judge: (e, c) => {
        legacyReadOnly(c, e);
        const [first, rerun] = e.runs;
        if (!plumbing(c, "migrate_exit_ok", first, ["mapping.json"], { ticket: "Both commands exit 0." })) return;
        const start = e.snapshots.start.target;
        const afterMigrate = e.snapshots.after_migrate;
        judgeMapping(c, objects(outputRows<MappingRow>(first, "mapping.json")), { start, legacy: afterMigrate.legacy, people: peopleOf(e), target: afterMigrate.target });
        const creates = targetWrites(e, isCreate);
        keysOnWrites(c, "creates_carry_idempotency_key", creates);

        if (!plumbing(c, "rerun_exit_ok", rerun, ["mapping.json"], { ticket: "Both commands exit 0." })) return;
        const final = e.snapshots.after_rerun.target;
        const added = candidates(final).length - candidates(afterMigrate.target).length;
        c.check("rerun_created_nothing", added === 0, {
          basis: { ticket: "Running `migrate` again when HireWire hasn't changed is a no-op: it creates nothing and writes the same `mapping.json`." },
          pass: 2,
          mandatory: true,
          detail: `the re-run added ${added} TalentForge candidates`,
        });
        const rows1 = JSON.stringify(outputRows(first, "mapping.json"));
        const rows2 = JSON.stringify(outputRows(rerun, "mapping.json"));
        c.check("rerun_mapping_unchanged", rows1 === rows2, {
          basis: { ticket: "Running `migrate` again when HireWire hasn't changed is a no-op: it creates nothing and writes the same `mapping.json`." },
          detail: rows1 === rows2 ? "the re-run wrote the same mapping" : "the re-run wrote a different mapping",
        });
        const committed = creates.filter((r) => r.status >= 200 && r.status < 300).length;
        const made = candidates(final).length - candidates(start).length;
        c.check("no_redundant_create_requests", committed <= made, {
          basis: { ticket: "Don't send a write the migration doesn't need." },
          level: "l2",
          detail: `${committed} successful createCandidate calls for ${made} new records`,
        });
      },
    },
    {
      name: "delta_then_cutover",
      judge: (e, c) => {
        legacyReadOnly(c, e);
        const [dry, final, annotate, again] = e.runs;
        if (!plumbing(c, "dry_run_exit_ok", dry, ["mapping.json"], { ticket: "Both commands exit 0." })) return;
        if (!plumbing(c, "final_migrate_exit_ok", final, ["mapping.json"], { ticket: "Both commands exit 0." })) return;
        const start = e.snapshots.start.target;
        const after = e.snapshots.after_final;
        const rows = objects(outputRows<MappingRow>(final, "mapping.json"));
        judgeMapping(c, rows, { start, legacy: after.legacy, people: peopleOf(e), target: after.target });
        const creates = targetWrites(e, isCreate);
        keysOnWrites(c, "creates_carry_idempotency_key", creates);
        const committed = creates.filter((r) => r.status >= 200 && r.status < 300).length;
        const made = candidates(after.target).length - candidates(start).length;
        c.check("no_redundant_create_requests", committed <= made, {
          basis: { ticket: "Don't send a write the migration doesn't need." },
          level: "l2",
          detail: `${committed} successful createCandidate calls for ${made} new records`,
        });

        const stillLive = new Set(live(after.legacy).map((r) => r.id));
        const vanished = live(e.snapshots.start.legacy)
          .filter((r) => !stillLive.has(r.id))
          .map((r) => r.id);
        const kept = rows.filter((r) => vanished.includes(String(r.hirewire_id))).map((r) => String(r.hirewire_id));
        c.check("deleted_legacy_candidates_leave_the_mapping", vanished.length > 0 && !kept.length, {
          basis: { ticket: "A candidate deleted in HireWire leaves `mapping.json` at the next run." },
          pass: 2,
          mandatory: true,
          detail: kept.length
            ? `${kept.length} of ${vanished.length} candidates deleted in HireWire still mapped (${few(kept)})`
            : `${vanished.length} candidates deleted in HireWire left the mapping`,
        });

        const earlier = new Map(objects(outputRows<MappingRow>(dry, "mapping.json")).map((r) => [String(r.hirewire_id), r]));
        const moved = rows.filter((r) => {
          const was = earlier.get(String(r.hirewire_id));
          return was && (was.talentforge_id !== r.talentforge_id || was.action !== r.action);
        });
        c.check("final_run_keeps_dry_run_decisions", !moved.length, {
          basis: { ticket: "Rows from earlier runs keep their record and their action." },
          detail: moved.length ? `${moved.length} rows changed since the dry run (${few(moved.map((r) => String(r.hirewire_id)))})` : "rows of the dry run kept their record and action",
        });

        // Cut-over: one provenance note on each record the migration created for a live candidate.
        if (!plumbing(c, "annotate_exit_ok", annotate, ["notes.json"], { ticket: "Both commands exit 0." })) return;
        const startIds = new Set(candidates(start).map((r) => r.id));
        const people = new Map<string, SnapshotRecord>();
        for (const p of live(after.legacy)) if (!people.has(emailKey(p.record.email))) people.set(emailKey(p.record.email), p);
        const created = live(after.target).filter((r) => !startIds.has(r.id) && people.has(emailKey(r.record.email)));
        const createdIds = new Set(created.map((t) => t.id));
        const ours = (s: Snapshot) => (s.entities.note ?? []).filter((n) => !n.deleted && n.record.author === NOTE_AUTHOR);
        const annotated = ours(e.snapshots.annotated.target);

        const wrong: string[] = [];
        for (const t of created) {
          const p = people.get(emailKey(t.record.email))!;
          const notes = annotated.filter((n) => n.record.candidate_id === t.id);
          if (notes.length !== 1 || notes[0].record.body !== noteBody(p.id, p.record.stage)) wrong.push(`${t.id}: ${notes.length} notes${notes.length === 1 ? " with another text" : ""}`);
        }
        c.check("created_candidates_get_one_migration_note", created.length > 0 && !wrong.length, {
          basis: { ticket: "For each TalentForge candidate the migration created (every `created` row of the current mapping), add exactly one note" },
          pass: 2,
          mandatory: true,
          detail: wrong.length
            ? `${wrong.length} of ${created.length} created candidates without exactly one right note: ${few(wrong)}`
            : `${created.length} created candidates, one migration note each`,
        });
        const stray = annotated.filter((n) => !createdIds.has(String(n.record.candidate_id)));
        c.check("no_migration_notes_elsewhere", !stray.length, {
          basis: { ticket: "Matched candidates get no note." },
          detail: stray.length
            ? `${stray.length} migration notes on candidates the migration did not create for a live HireWire candidate (${few(stray.map((n) => String(n.record.candidate_id)))})`
            : "migration notes only on created candidates",
        });

        const noteRows = objects(outputRows<NoteRow>(annotate, "notes.json"));
        const byId = new Map(annotated.map((n) => [n.id, n]));
        const badRows = noteRows.filter((r) => {
          const n = byId.get(String(r.note_id));
          return !n || n.record.candidate_id !== r.talentforge_id || !String(n.record.body).startsWith(`Migrated from HireWire candidate ${String(r.hirewire_id)} `);
        });
        const covered = new Set(noteRows.map((r) => String(r.talentforge_id)));
        const uncovered = [...createdIds].filter((id) => !covered.has(id));
        const sorted = noteRows.every((r, i) => i === 0 || Number(noteRows[i - 1].hirewire_id) < Number(r.hirewire_id));
        c.check("notes_file_lists_the_notes", !badRows.length && !uncovered.length && noteRows.length === createdIds.size && sorted, {
          basis: { ticket: "one row per created candidate, sorted by `hirewire_id`" },
          detail: `${noteRows.length} rows for ${createdIds.size} created candidates; ${badRows.length} rows name no matching note; ${uncovered.length} created candidates missing${sorted ? "" : "; not sorted by hirewire_id"}`,
        });
        const notePosts = targetWrites(e, isNote);
        keysOnWrites(c, "notes_carry_idempotency_key", notePosts);

        if (!plumbing(c, "annotate_rerun_exit_ok", again, ["notes.json"], { ticket: "Both commands exit 0." })) return;
        const notesIn = (label: string) => (e.snapshots[label].target.entities.note ?? []).length;
        const added = notesIn("annotated_again") - notesIn("annotated");
        c.check("annotate_rerun_added_nothing", added === 0, {
          basis: { ticket: "Running `annotate` again adds nothing." },
          pass: 2,
          mandatory: true,
          detail: `the second annotate added ${added} notes`,
        });
        const notesCommitted = notePosts.filter((r) => r.status >= 200 && r.status < 300).length;
        const notesMade = notesIn("annotated_again") - notesIn("after_final");
        c.check("no_redundant_note_requests", notesCommitted <= notesMade, {
          basis: { ticket: "Don't send a write the migration doesn't need." },
          level: "l2",
          detail: `${notesCommitted} successful addNote calls for ${notesMade} new notes`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials go in headers, never in URLs.",
    no_secrets_echoed_to_vendor: "Credentials go in headers, never in URLs.",
    token_reused_not_reminted: "Reuse tokens and sessions for as long as they are valid.",
    retry_after_honored: "Follow the documented rate limits.",
    idempotent_write_retries: "Creates must be safe to retry.",
  },
});
