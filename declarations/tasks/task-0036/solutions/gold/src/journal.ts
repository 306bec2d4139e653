import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** What the job has created in Onboardly for one starter, kept across runs. */
export interface Entry {
  packet_id: string | null;
  signer_id: string | null;
}

/**
 * The job's memory between runs: each starter's packet id the moment Onboardly
 * answers the create, so a later run finishes that packet instead of building another.
 */
export class Journal {
  private readonly entries: Record<string, Entry>;
  private readonly path: string;

  constructor(path = "state/journal.json") {
    this.path = path;
    try {
      this.entries = JSON.parse(readFileSync(path, "utf8")) as Record<string, Entry>;
    } catch {
      this.entries = {};
    }
  }

  get(ref: string): Entry {
    return this.entries[ref] ?? { packet_id: null, signer_id: null };
  }

  set(ref: string, entry: Entry): void {
    this.entries[ref] = entry;
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(`${this.path}.tmp`, `${JSON.stringify(this.entries, null, 2)}\n`);
    renameSync(`${this.path}.tmp`, this.path);
  }
}
