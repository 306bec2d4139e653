/**
 * @module time-formats/define
 * The shape of a time format: how a vendor writes an instant on the wire,
 * how it reads one a client sends (watermarks), and how the docs and the
 * OpenAPI document describe it. One module per format; `time-formats/index.ts`
 * lists them.
 */

/** What a format may know about the record a timestamp belongs to. */
export interface TimeContext {
  /** Id of the record (per-record offsets are keyed by it). */
  recordId: string;
  /** IANA zone of the record (local formats): the record's own, else the vendor's. */
  zone?: string;
}

/** The zone settings of a vendor clock. */
export interface ClockZone {
  /** The vendor's own IANA zone. */
  zone?: string;
  /** Record field naming a record's own zone. */
  zoneField?: string;
}

export interface TimeFormatKind<N extends string = string> {
  name: N;
  format(ms: number, ctx: TimeContext): number | string;
  /** Reads an instant a client sent; null when it is not one in this format. */
  parse(raw: string): number | null;
  /** Why a clock cannot use this format, or null. */
  check?(clock: ClockZone): string | null;
  docs: {
    /** How the format reads in prose ("integer seconds since the Unix epoch"). */
    describe(clock: ClockZone): string;
    /** JSON Schema of a value. */
    schema: Record<string, unknown>;
  };
}

export function defineTimeFormat<const N extends string>(f: TimeFormatKind<N>): TimeFormatKind<N> {
  return f;
}

/** An ISO 8601 instant with `Z` or an offset; null otherwise. */
export function parseIsoInstant(raw: string): number | null {
  const trimmed = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(trimmed)) return null;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? null : ms;
}

/** An unsigned integer of at most 16 digits; null otherwise. */
export function parseInteger(raw: string): number | null {
  const trimmed = raw.trim();
  return /^\d{1,16}$/.test(trimmed) ? Number(trimmed) : null;
}
