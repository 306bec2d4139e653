import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** What has been written to Onboardly for one hire; each id is kept the moment Onboardly answers. */
export interface Hire {
  application_id: string;
  candidate_id: string;
  packet_id: string | null;
  signer_id: string | null;
  document_id: string | null;
  uploaded: boolean;
}

interface Data {
  hires: Record<string, Hire>;
  /** TalentForge event ids already taken in. */
  events: string[];
}

/**
 * The state `serve` and `reconcile` share (they never run at the same time): read
 * fresh at every use so one process sees what the other wrote, written atomically.
 */
export class Ledger {
  private readonly path: string;

  constructor(path = "state/ledger.json") {
    this.path = path;
  }

  private read(): Data {
    try {
      return JSON.parse(readFileSync(this.path, "utf8")) as Data;
    } catch {
      return { hires: {}, events: [] };
    }
  }

  private write(d: Data): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(`${this.path}.tmp`, JSON.stringify(d, null, 1));
    renameSync(`${this.path}.tmp`, this.path);
  }

  hire(id: string): Hire | null {
    return this.read().hires[id] ?? null;
  }

  hires(): Hire[] {
    return Object.values(this.read().hires);
  }

  saveHire(h: Hire): void {
    const d = this.read();
    d.hires[h.application_id] = h;
    this.write(d);
  }

  seen(eventId: string): boolean {
    return this.read().events.includes(eventId);
  }

  rememberEvent(eventId: string): void {
    const d = this.read();
    if (!d.events.includes(eventId)) d.events.push(eventId);
    this.write(d);
  }
}
