/** Wall-clock time in one IANA zone, with the offset that zone had at each instant (DST included). */
export class LocalTime {
  private readonly fmt: Intl.DateTimeFormat;

  constructor(zone: string) {
    this.fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  }

  /** Offset of the zone from UTC at an instant, in minutes. */
  offsetMinutes(ms: number): number {
    const p = Object.fromEntries(this.fmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
  }

  /** The instant at which the wall clock of `date` (YYYY-MM-DD) shows `hour`:00. */
  instant(date: string, hour: number): number {
    const [y, m, d] = date.split("-").map(Number);
    const wall = Date.UTC(y, m - 1, d, hour);
    let ms = wall - this.offsetMinutes(wall) * 60_000;
    ms = wall - this.offsetMinutes(ms) * 60_000;
    return ms;
  }

  /** An instant as local ISO 8601 with its offset (2023-11-07T06:00:00-06:00). */
  format(ms: number): string {
    const off = this.offsetMinutes(ms);
    const local = new Date(ms + off * 60_000).toISOString().slice(0, 19);
    const sign = off < 0 ? "-" : "+";
    const a = Math.abs(off);
    return `${local}${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
  }
}
