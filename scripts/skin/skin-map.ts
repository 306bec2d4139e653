/**
 * @module skin-map
 * A skin: the deterministic map, derived from a key, from the public set's
 * distinctive strings to new ones. The same key gives the same map on every
 * machine; two keys give different maps. A new string never collides with
 * a string already in the tree, so the map can be applied in one pass.
 */
import { keyedNumber, keyedPick, skinTag } from "./keyed-choice.ts";
import { SYNONYMS } from "./synonyms.ts";
import type { Brand, Vocabulary } from "./vocabulary.ts";

export interface SkinMap {
  key: string;
  /** Six hex digits naming the skin. */
  tag: string;
  brands: { from: Brand; to: Brand }[];
  /** Credential and id prefixes, old to new (`plc_` to `huz_`, `CAN-` to `LEW-`). */
  prefixes: Record<string, string>;
  /** The vendor-specific first part of those prefixes, in lower case, old to new (`plc` to `huz`). */
  stems: Record<string, string>;
  services: Record<string, string>;
  words: Record<string, string>;
  /** Vocabulary the skin leaves as it is, and why. */
  kept: { word: string; why: string }[];
}

/** What the skin must know about the tree it renames. */
export interface Corpus {
  /** Every identifier-like token anywhere in the tree (a new name must not be one). */
  tokens: ReadonlySet<string>;
  /** The whole tree in lower case (a new brand must not occur in it). */
  lowerText: string;
  /** Tokens the engine (product code, not declarations) names: renaming them would change the engine, so they stay. */
  engineTokens: ReadonlySet<string>;
}

const HEADS = [
  "Quill",
  "Harbor",
  "Lumen",
  "Brisk",
  "Cobalt",
  "Ember",
  "Fable",
  "Gantry",
  "Helix",
  "Indigo",
  "Juniper",
  "Kestrel",
  "Larch",
  "Mosaic",
  "Nimbus",
  "Orbit",
  "Pylon",
  "Quarry",
  "Rivet",
  "Sable",
  "Tandem",
  "Umber",
  "Vesper",
  "Wren",
  "Yarrow",
  "Zephyr",
  "Alder",
  "Birch",
  "Cinder",
  "Drift",
  "Fjord",
  "Garnet",
  "Heron",
  "Ivory",
  "Jetty",
  "Kiln",
];
const TAILS = ["ly", "io", "Desk", "Works", "Base", "Hub", "Grid", "Path", "Post", "Stack", "Point", "Field", "Yard", "Wise", "Dock", "Gate", "Line", "Bay"];

/** Stems of a credential or id prefix that say nothing about the vendor (`whsec_`, `app_`): they stay. */
const GENERIC_SEGMENTS = new Set(["live", "test", "api", "app", "int", "pw", "sk", "ci", "cs", "cid", "csec", "whsec", "wh", "legacy", "at", "hs", "sec"]);

const LOWER = "abcdefghijklmnopqrstuvwxyz";

function brandFor(key: string, from: Brand, attempt: number): Brand & { head: string } {
  const head = keyedPick(key, `brand-head:${from.id}`, HEADS, attempt);
  const tail = keyedPick(key, `brand-tail:${from.id}`, TAILS, attempt);
  const name = head + tail;
  const id = name.toLowerCase();
  return { id, name, envPrefix: id.toUpperCase(), head };
}

/** A prefix's first part, which names the vendor or the record (`plc` of `plc_`, `cc` of `cc_live_`), and the rest. */
export function stemOf(prefix: string): { stem: string; rest: string } {
  const m = /^([A-Za-z]+)(.*)$/s.exec(prefix);
  return m ? { stem: m[1], rest: m[2] } : { stem: "", rest: prefix };
}

/** `stem` rendered in the case of `like` (`ASG` gives upper case, `Asg` a capital). */
export function inCaseOf(like: string, stem: string): string {
  if (like === like.toUpperCase()) return stem.toUpperCase();
  if (like === like.toLowerCase()) return stem.toLowerCase();
  return stem.charAt(0).toUpperCase() + stem.slice(1).toLowerCase();
}

function newStem(key: string, stem: string, attempt: number): string {
  return [...stem].map((_, i) => LOWER[keyedNumber(key, `stem:${stem}:${i}`, attempt) % 26]).join("");
}

/** The parts of a compound and how to put them back: `billing_city`, `hqLocation`, `TimeClockService`. */
function split(word: string): { parts: string[]; join: (parts: string[]) => string } {
  if (word.includes("_")) return { parts: word.split("_"), join: (p) => p.join("_") };
  const capitalFirst = /^[A-Z]/.test(word);
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return {
    parts: word.split(/(?=[A-Z])/).map((p) => p.toLowerCase()),
    join: (p) =>
      p
        .flatMap((x) => x.split("_"))
        .map((x, i) => (i === 0 && !capitalFirst ? x : cap(x)))
        .join(""),
  };
}

function newWord(key: string, word: string, attempt: number): string {
  const { parts, join } = split(word);
  return join(parts.map((p) => (SYNONYMS[p] ? keyedPick(key, `word:${p}`, SYNONYMS[p], attempt) : p)));
}

/** Builds the skin of `vocabulary` under `key`. */
export function buildSkin(key: string, vocabulary: Vocabulary, corpus: Corpus): SkinMap {
  if (key.trim() === "") throw new Error("a skin key must not be empty");
  for (const b of vocabulary.brands)
    if (b.envPrefix !== b.id.toUpperCase()) throw new Error(`vendor ${b.id}: a skin renames a vendor's environment prefix with its id, so it must be the id in capitals (it is ${b.envPrefix})`);
  const taken = new Set<string>();
  const brands: SkinMap["brands"] = [];
  const heads = new Set<string>();
  const fresh = (candidate: string) => !taken.has(candidate) && !corpus.tokens.has(candidate);
  for (const from of vocabulary.brands) {
    let to: (Brand & { head: string }) | undefined;
    for (let attempt = 0; attempt < 256 && !to; attempt++) {
      const b = brandFor(key, from, attempt);
      const clash = heads.has(b.head) || corpus.lowerText.includes(b.id) || [...taken].some((t) => t.includes(b.id) || b.id.includes(t));
      if (!clash) to = b;
    }
    if (!to) throw new Error(`no brand found for ${from.id} under this key`);
    taken.add(to.id);
    heads.add(to.head);
    brands.push({ from, to: { id: to.id, name: to.name, envPrefix: to.envPrefix } });
  }
  const prefixes: Record<string, string> = {};
  const stems: Record<string, string> = {};
  const byStem = new Map<string, string[]>();
  for (const p of vocabulary.prefixes) {
    const { stem } = stemOf(p);
    if (stem === "" || GENERIC_SEGMENTS.has(stem.toLowerCase())) continue;
    byStem.set(stem.toLowerCase(), [...(byStem.get(stem.toLowerCase()) ?? []), p]);
  }
  const oldStems = new Set(byStem.keys());
  for (const [stem, ps] of byStem) {
    for (let attempt = 0; attempt < 64; attempt++) {
      const q = newStem(key, stem, attempt);
      const renamed = ps.map((p) => inCaseOf(stemOf(p).stem, q) + stemOf(p).rest);
      if (oldStems.has(q) || Object.values(stems).includes(q) || renamed.some((r) => !fresh(r) || corpus.lowerText.includes(r.toLowerCase()))) continue;
      stems[stem] = q;
      ps.forEach((p, i) => {
        prefixes[p] = renamed[i];
        taken.add(renamed[i]);
      });
      break;
    }
  }
  const kept: SkinMap["kept"] = [];
  const renameAll = (list: string[], engineKept: boolean): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const w of list) {
      if (engineKept && corpus.engineTokens.has(w)) {
        kept.push({ word: w, why: "the engine names it" });
        continue;
      }
      if (newWord(key, w, 0) === w) {
        kept.push({ word: w, why: "no part has a synonym" });
        continue;
      }
      let to: string | undefined;
      for (let attempt = 0; attempt < 8 && to === undefined; attempt++) {
        const q = newWord(key, w, attempt);
        if (q !== w && fresh(q)) to = q;
      }
      if (to === undefined) kept.push({ word: w, why: "every renaming collides with a name in the tree" });
      else {
        out[w] = to;
        taken.add(to);
      }
    }
    return out;
  };
  const services = renameAll(vocabulary.services, false);
  const words = renameAll(vocabulary.words, true);
  return { key, tag: skinTag(key), brands, prefixes, stems, services, words, kept };
}
