/** Half-open spans of time [start, end) in epoch milliseconds. */
export interface Span {
  start: number;
  end: number;
}

/** The spans merged: overlapping or touching spans become one; sorted by start. */
export function union(spans: Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** What is left of `spans` after taking every span of `minus` out. */
export function subtract(spans: Span[], minus: Span[]): Span[] {
  let left = union(spans);
  for (const m of union(minus)) {
    left = left.flatMap((s) => {
      if (m.end <= s.start || m.start >= s.end) return [s];
      const parts: Span[] = [];
      if (m.start > s.start) parts.push({ start: s.start, end: m.start });
      if (m.end < s.end) parts.push({ start: m.end, end: s.end });
      return parts;
    });
  }
  return left;
}

/** The spans cut to `within`. */
export function clip(spans: Span[], within: Span): Span[] {
  return spans.map((s) => ({ start: Math.max(s.start, within.start), end: Math.min(s.end, within.end) })).filter((s) => s.end > s.start);
}
