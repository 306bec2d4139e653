/**
 * @module rewrite
 * Applies a skin to text and to paths in one pass: a single regular
 * expression finds every distinctive string, so a replacement is never
 * rewritten again.
 *
 * - A brand is matched in any case and anywhere (`placemint`,
 *   `PLACEMINT_BASE_URL`, `PlaceMint`, `src/placemint.ts`) and rendered in
 *   the case it was found in.
 * - A prefix's stem is matched, in any case, where it starts an id or a
 *   credential (`plc_000123`, `ASG-7`, `"plc_"`, `` `plc_` ``, the regular
 *   expressions `/^asg[_-]?\d+$/i` and `/^(?:tl)?[\s_-]*\d+$/i`), never
 *   inside a longer name (`plc_count`) or before an index (`c[0]`).
 * - A service or word is matched as a whole word.
 */
import type { Brand } from "./vocabulary.ts";
import { inCaseOf, type SkinMap, stemOf } from "./skin-map.ts";

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const anyCase = (s: string) => [...s].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : escapeRegex(ch))).join("");
const longestFirst = (a: string, b: string) => b.length - a.length || a.localeCompare(b);

function renderBrand(found: string, from: Brand, to: Brand): string {
  if (found === from.name) return to.name;
  if (found === found.toLowerCase()) return to.id;
  if (found === found.toUpperCase()) return to.envPrefix;
  if (found.charAt(0) === found.charAt(0).toUpperCase() && found.slice(1) === found.slice(1).toLowerCase()) return to.id.charAt(0).toUpperCase() + to.id.slice(1);
  return to.name;
}

/** The distinctive strings a skin renames, as one expression: group 1 a brand, 2 a prefix, 3 a word. */
export function vocabularyPattern(map: Pick<SkinMap, "brands" | "prefixes" | "stems" | "services" | "words">): RegExp {
  const brands = map.brands
    .map((b) => b.from.id)
    .sort(longestFirst)
    .map(anyCase);
  const prefixes = Object.keys(map.prefixes)
    .sort(longestFirst)
    .map((p) => {
      const { stem, rest } = stemOf(p);
      // The whole prefix before anything but a letter; an id's digits after a separator or none; a regular expression's separator class.
      const single = /^[_-]$/.test(rest);
      const after = [`${escapeRegex(rest)}(?![A-Za-z_])`, ...(single ? ["[_-]\\d", "\\)?\\??\\[[^\\]]*[-_][^\\]]*\\]"] : [])];
      return `${anyCase(stem)}(?=${after.join("|")})`;
    });
  const words = [...Object.keys(map.services), ...Object.keys(map.words)].sort(longestFirst).map(escape);
  const alternatives = [brands.length ? `(${brands.join("|")})` : "(?!)", prefixes.length ? `(?<![A-Za-z0-9_-])(${prefixes.join("|")})` : "(?!)", words.length ? `\\b(${words.join("|")})\\b` : "(?!)"];
  return new RegExp(alternatives.join("|"), "g");
}

export type Rewriter = (text: string) => string;

/** A function that applies `map` to a text (a file's content or a path). */
export function rewriter(map: SkinMap): Rewriter {
  const pattern = vocabularyPattern(map);
  const brandOf = new Map(map.brands.map((b) => [b.from.id, b]));
  const envOf = new Map(map.brands.filter((b) => b.from.envPrefix !== b.from.id.toUpperCase()).map((b) => [b.from.envPrefix, b.to.envPrefix]));
  const words: Record<string, string> = { ...map.services, ...map.words, ...Object.fromEntries(envOf) };
  return (text) =>
    text.replace(pattern, (found, brand: string | undefined, prefix: string | undefined, word: string | undefined) => {
      if (brand !== undefined) {
        const b = brandOf.get(brand.toLowerCase())!;
        return renderBrand(found, b.from, b.to);
      }
      if (prefix !== undefined) return inCaseOf(prefix, map.stems[prefix.toLowerCase()]);
      return words[word!];
    });
}
