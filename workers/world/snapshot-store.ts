/**
 * @module snapshot-store
 * Labelled ground-truth snapshots a role's object took when asked (the farm's
 * own, never a caller's), kept by epoch and label until the world ends. A
 * snapshot's JSON is stored in parts: the object's storage caps one value at
 * 2 MB, and a character may take up to three bytes.
 */

/** Characters per stored part. */
const SNAPSHOT_PART = 500_000;

/** Most labels one epoch may hold: a bound on what a caller can make the object store. */
export const MAX_SNAPSHOTS_PER_EPOCH = 64;

/** Stores (or replaces) the snapshot `label` of `epoch`; false when the epoch already holds its most labels. */
export function storeSnapshot(sql: SqlStorage, epoch: number, label: string, json: string): boolean {
  const labels = sql.exec("SELECT count(DISTINCT label) AS n, sum(label = ?) AS same FROM snapshots WHERE epoch = ?", label, epoch).one();
  if ((labels.n as number) >= MAX_SNAPSHOTS_PER_EPOCH && !labels.same) return false;
  sql.exec("DELETE FROM snapshots WHERE epoch = ? AND label = ?", epoch, label);
  for (let part = 0; part === 0 || part * SNAPSHOT_PART < json.length; part++) {
    sql.exec("INSERT INTO snapshots (epoch, label, part, json) VALUES (?, ?, ?, ?)", epoch, label, part, json.slice(part * SNAPSHOT_PART, (part + 1) * SNAPSHOT_PART));
  }
  return true;
}

/** The stored snapshots of the given epochs as JSON text by label; where two epochs hold a label, the later one in `epochs` wins. */
export function readSnapshots(sql: SqlStorage, epochs: number[]): Record<string, string> {
  const byLabel: Record<string, string> = {};
  for (const epoch of epochs) {
    const parts = new Map<string, string[]>();
    for (const row of sql.exec("SELECT label, json FROM snapshots WHERE epoch = ? ORDER BY label, part", epoch)) {
      const label = row.label as string;
      parts.set(label, [...(parts.get(label) ?? []), row.json as string]);
    }
    for (const [label, texts] of parts) byLabel[label] = texts.join("");
  }
  return byLabel;
}
