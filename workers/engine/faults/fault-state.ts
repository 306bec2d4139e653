import type { Fault } from "../../../declarations/schema/faults.ts";

/** The faults armed for the current epoch and the counters their triggers read. */
export class FaultState {
  private readonly armed: Fault[];
  private readonly commits = new Map<string, number>();

  constructor(armed: Fault[]) {
    this.armed = armed;
  }

  /** Call after a write committed; returns the fault that turns its answer into an error, if any. */
  afterCommit(write: string): Extract<Fault, { kind: "error-after-commit" }> | null {
    const n = (this.commits.get(write) ?? 0) + 1;
    this.commits.set(write, n);
    for (const f of this.armed) if (f.kind === "error-after-commit" && f.write === write && f.nth === n) return f;
    return null;
  }
}
