import type { Config } from "./config.ts";
import { HireWire, type HwCandidate } from "./hirewire.ts";
import { CONCURRENCY, HttpError, inPool } from "./http.ts";
import { readState, writeJson, writeState, type MappingRow } from "./state.ts";
import { TalentForge } from "./talentforge.ts";

/** The identity both systems share: the email address, compared case-insensitively. */
export const emailKey = (email: unknown): string =>
  String(email ?? "")
    .trim()
    .toLowerCase();

/**
 * Brings TalentForge and mapping.json up to date with HireWire as it stands now.
 * Every live HireWire candidate ends with exactly one live TalentForge record
 * carrying the same email: an existing live one when there is one (records
 * flagged is_deleted do not count), else one we create under an idempotency key
 * derived from the HireWire id, so that a retry or a re-run never makes a
 * second. Nothing is written to HireWire; existing TalentForge records are
 * never changed. HireWire is always crawled in full: its deletes vanish, and
 * only a full list shows who is gone.
 */
export async function migrate(config: Config): Promise<void> {
  const hw = new HireWire(config);
  const tf = new TalentForge(config);
  const state = readState(config.outputDir);

  const people = await hw.candidates();
  const live = (await tf.candidates()).filter((c) => c.is_deleted !== true);
  const emailOf = new Map(live.map((c) => [c.id, emailKey(c.email)]));
  const byEmail = new Map<string, string>();
  for (const c of live) if (!byEmail.has(emailKey(c.email))) byEmail.set(emailKey(c.email), c.id);
  // Records this migration created earlier (and that are still live with the same email) win over any other.
  const ours = new Map<string, string>();
  for (const [_hwId, tfId] of Object.entries(state.created)) if (emailOf.has(tfId)) ours.set(emailOf.get(tfId)!, tfId);

  const failures: string[] = [];
  const toCreate = new Map<string, HwCandidate>();
  for (const p of people) {
    const key = emailKey(p.email);
    if (!key) failures.push(`HireWire candidate ${p.id} has no email`);
    else if (!ours.has(key) && !byEmail.has(key) && !toCreate.has(key)) toCreate.set(key, p);
  }

  // One create per missing email; people sharing an email share the record.
  await inPool([...toCreate.entries()], CONCURRENCY, async ([key, p]) => {
    const input: Record<string, string> = { given_name: p.name, family_name: p.surname, email: p.email };
    if (p.role) input.current_title = p.role;
    try {
      const created = await tf.createCandidate(input, `hirewire-candidate-${p.id}`);
      state.created[String(p.id)] = created.id;
      ours.set(key, created.id);
      writeState(config.outputDir, state);
    } catch (err) {
      if (err instanceof HttpError && err.status === 422) failures.push(`HireWire candidate ${p.id} refused by TalentForge: ${err.message}`);
      else throw err;
    }
  });

  const rows: MappingRow[] = [];
  for (const p of people) {
    const key = emailKey(p.email);
    const mine = ours.get(key);
    const target = mine ?? byEmail.get(key);
    if (!target) continue;
    rows.push({ hirewire_id: Number(p.id), talentforge_id: target, action: mine && state.created[String(p.id)] === mine ? "created" : "matched" });
  }
  rows.sort((a, b) => a.hirewire_id - b.hirewire_id);
  writeJson(config.outputDir, "mapping.json", rows);
  writeState(config.outputDir, state);
  const created = rows.filter((r) => r.action === "created").length;
  console.error(`migrate: ${people.length} HireWire candidates, ${rows.length - created} matched, ${created} created`);
  if (failures.length) throw new Error(`${failures.length} candidates not migrated:\n${failures.join("\n")}`);
}
