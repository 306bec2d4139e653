import type { Config } from "./config.ts";
import { HireWire } from "./hirewire.ts";
import { CONCURRENCY, inPool } from "./http.ts";
import { readJson, readState, writeJson, writeState, type MappingRow, type NoteRow } from "./state.ts";
import { TalentForge } from "./talentforge.ts";

export const NOTE_AUTHOR = "HireWire migration";
export const noteBody = (id: number, stage: string) => `Migrated from HireWire candidate ${id} (stage: ${stage}).`;

/**
 * After cut-over: one provenance note on every TalentForge candidate the
 * migration created. Reads HireWire, writes only to TalentForge; a re-run finds
 * the notes it already wrote and adds none.
 */
export async function annotate(config: Config): Promise<void> {
  const mapping = readJson<MappingRow[]>(config.outputDir, "mapping.json");
  if (!mapping) throw new Error("no mapping.json: run migrate first");
  const state = readState(config.outputDir);
  const written = (state.notes ??= {});
  const todo = mapping.filter((r) => r.action === "created");
  const tf = new TalentForge(config);
  const stages = todo.some((m) => !written[String(m.hirewire_id)]) ? new Map((await new HireWire(config).candidates()).map((c) => [Number(c.id), c.stage])) : new Map<number, string>();

  const rows: NoteRow[] = [];
  await inPool(todo, CONCURRENCY, async (m) => {
    let noteId = written[String(m.hirewire_id)];
    if (!noteId) {
      const stage = stages.get(m.hirewire_id);
      if (stage === undefined) {
        console.error(`HireWire candidate ${m.hirewire_id} is gone; no note`);
        return;
      }
      // A note from an earlier run whose state was lost counts too.
      const prefix = `Migrated from HireWire candidate ${m.hirewire_id} `;
      const existing = (await tf.notes(m.talentforge_id)).find((n) => n.is_deleted !== true && n.author === NOTE_AUTHOR && n.body.startsWith(prefix));
      noteId = (existing ?? (await tf.addNote(m.talentforge_id, { body: noteBody(m.hirewire_id, stage), author: NOTE_AUTHOR }, `hirewire-note-${m.hirewire_id}`))).id;
      written[String(m.hirewire_id)] = noteId;
      writeState(config.outputDir, state);
    }
    rows.push({ hirewire_id: m.hirewire_id, talentforge_id: m.talentforge_id, note_id: noteId });
  });
  rows.sort((a, b) => a.hirewire_id - b.hirewire_id);
  writeJson(config.outputDir, "notes.json", rows);
  console.error(`annotate: ${rows.length} created candidates carry their migration note`);
}
