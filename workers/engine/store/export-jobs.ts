/**
 * @module export-jobs
 * Typed access to the export tables: one row per job and one per line of its
 * snapshot, keyed by log epoch, so a recreate starts with no jobs (an older
 * epoch's jobs are invisible, and dropped when the next one is requested).
 */

/** A stored export job. */
export interface ExportJob {
  id: string;
  /** Name of the export it runs. */
  exportName: string;
  /** When it was requested, as the vendor writes times. */
  requestedAt: unknown;
  rowCount: number;
  /** Status reads so far. */
  polls: number;
  /** Downloads so far. */
  downloads: number;
}

export class ExportJobStore {
  private readonly sql: SqlStorage;
  private readonly epoch: number;

  constructor(sql: SqlStorage, epoch: number) {
    this.sql = sql;
    this.epoch = epoch;
  }

  /** Stores a new job with its snapshot lines; its id is the epoch and the job's number in it, so reruns name jobs alike. */
  create(exportName: string, requestedAt: unknown, lines: string[]): ExportJob {
    this.sql.exec("DELETE FROM export_rows WHERE epoch != ?", this.epoch);
    this.sql.exec("DELETE FROM export_jobs WHERE epoch != ?", this.epoch);
    const n = (this.sql.exec("SELECT count(*) AS n FROM export_jobs WHERE epoch = ?", this.epoch).one().n as number) + 1;
    const id = `exp_${this.epoch}_${String(n).padStart(4, "0")}`;
    this.sql.exec("INSERT INTO export_jobs (epoch, id, export, requested_at, row_count) VALUES (?, ?, ?, ?, ?)", this.epoch, id, exportName, JSON.stringify(requestedAt), lines.length);
    // Lines travel as one JSON array, unpacked by json_each: the runtime allows few bound parameters per statement.
    const BATCH = 1000;
    for (let i = 0; i < lines.length; i += BATCH) {
      this.sql.exec("INSERT INTO export_rows (epoch, job, n, line) SELECT ?, ?, ? + key, value FROM json_each(?)", this.epoch, id, i, JSON.stringify(lines.slice(i, i + BATCH)));
    }
    return { id, exportName, requestedAt, rowCount: lines.length, polls: 0, downloads: 0 };
  }

  get(id: string): ExportJob | null {
    const rows = this.sql.exec("SELECT * FROM export_jobs WHERE epoch = ? AND id = ?", this.epoch, id).toArray();
    if (!rows.length) return null;
    const r = rows[0];
    return {
      id: r.id as string,
      exportName: r.export as string,
      requestedAt: JSON.parse(r.requested_at as string),
      rowCount: r.row_count as number,
      polls: r.polls as number,
      downloads: r.downloads as number,
    };
  }

  /** Counts one status read; the job as it stands after it. */
  poll(job: ExportJob): ExportJob {
    this.sql.exec("UPDATE export_jobs SET polls = polls + 1 WHERE epoch = ? AND id = ?", this.epoch, job.id);
    return { ...job, polls: job.polls + 1 };
  }

  /** Counts one download. */
  downloaded(job: ExportJob): ExportJob {
    this.sql.exec("UPDATE export_jobs SET downloads = downloads + 1 WHERE epoch = ? AND id = ?", this.epoch, job.id);
    return { ...job, downloads: job.downloads + 1 };
  }

  /** The snapshot's lines, in order. */
  lines(job: ExportJob): string[] {
    return this.sql
      .exec("SELECT line FROM export_rows WHERE epoch = ? AND job = ? ORDER BY n", this.epoch, job.id)
      .toArray()
      .map((r) => r.line as string);
  }
}
