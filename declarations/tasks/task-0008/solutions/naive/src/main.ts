// TalentForge new-hire writeback. Command: apply (reads data/new-hires.json).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiError, TalentForgeClient } from "./api.ts";

interface Hire {
  client_ref: string;
  legal_first_name: string;
  legal_last_name: string;
  personal_email: string;
  mobile: string | null;
  job_title: string;
  work_location: string;
  onboarding_note: string;
}

interface Row {
  client_ref: string;
  ok: boolean;
  talentforge_id: string | null;
  note_id: string | null;
  error?: string;
}

function env(name: string): string {
  const v = process.env[name];
  if (!v) {
    console.error(`missing ${name}`);
    process.exit(2);
  }
  return v;
}

async function apply(): Promise<void> {
  const outputDir = process.env.OUTPUT_DIR ?? "output";
  const resultPath = join(outputDir, "writeback_result.json");
  const batch = JSON.parse(readFileSync(new URL("../data/new-hires.json", import.meta.url), "utf8")) as { note_author: string; hires: Hire[] };
  const client = new TalentForgeClient(env("TALENTFORGE_BASE_URL"), env("TALENTFORGE_CLIENT_ID"), env("TALENTFORGE_CLIENT_SECRET"));

  // Resume: hires a previous run already applied are not sent again.
  const previous = new Map<string, Row>();
  if (existsSync(resultPath)) for (const r of JSON.parse(readFileSync(resultPath, "utf8")) as Row[]) if (r.ok) previous.set(r.client_ref, r);

  const rows: Row[] = [];
  for (const hire of batch.hires) {
    const done = previous.get(hire.client_ref);
    if (done) {
      rows.push(done);
      continue;
    }
    const row: Row = { client_ref: hire.client_ref, ok: false, talentforge_id: null, note_id: null };
    try {
      const candidate = await client.request<{ id: string }>("POST", "/rest/candidates", {
        given_name: hire.legal_first_name,
        family_name: hire.legal_last_name,
        email: hire.personal_email,
        ...(hire.mobile ? { phone: hire.mobile } : {}),
        current_title: hire.job_title,
        location: hire.work_location,
      });
      row.talentforge_id = candidate.id;
      const note = await client.request<{ id: string }>("POST", `/rest/candidates/${candidate.id}/notes`, { body: hire.onboarding_note, author: batch.note_author });
      row.note_id = note.id;
      row.ok = true;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      row.error = err.message;
    }
    rows.push(row);
  }
  rows.sort((a, b) => a.client_ref.localeCompare(b.client_ref));
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(resultPath, JSON.stringify(rows, null, 2));
  console.error(`applied ${rows.filter((r) => r.ok).length} of ${rows.length} hires`);
}

if (process.argv[2] !== "apply") {
  console.error("usage: node src/main.ts apply");
  process.exit(2);
}
apply().catch((err) => {
  console.error(err);
  process.exit(1);
});
