/**
 * @module vocabulary
 * The distinctive strings of the public set, read from the vendor
 * declarations: what a skin renames and what its leak scan looks for.
 *
 * - brands: a vendor's id, product name and environment prefix (every case);
 * - prefixes: credential and record-id prefixes (`pmci_`, `plc_`, `CAN-`);
 * - services: the names of SOAP and XML-over-POST services;
 * - words: field names and error codes that are compounds (`billing_city`,
 *   `board_rebalancing`, `hqLocation`); a plain English word (`status`,
 *   `recruiter`) is not distinctive and stays, and so do stages and
 *   enumerated values, which tickets name in words.
 */
import type { Vendor } from "../../declarations/schema/vendor.ts";

export interface Brand {
  id: string;
  name: string;
  envPrefix: string;
}

export interface Vocabulary {
  brands: Brand[];
  prefixes: string[];
  services: string[];
  words: string[];
}

/** A compound worth renaming: snake case with two parts or more, or camel case. */
export function isCompound(word: string): boolean {
  return /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(word) || /^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(word);
}

/**
 * Keys whose string values name vocabulary: error codes. Stages and enumerated values stay, because
 * tickets and materials name them in words (`Warehouse associate` is `warehouse_associate`) and a
 * connector may rightly derive one from the other.
 */
const VALUE_KEYS = new Set(["code"]);

function collectValues(node: unknown, key: string, into: Set<string>): void {
  if (typeof node === "string") {
    if (VALUE_KEYS.has(key) && isCompound(node)) into.add(node);
  } else if (Array.isArray(node)) {
    for (const item of node) collectValues(item, key, into);
  } else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) collectValues(v, k, into);
  }
}

/** The vocabulary of a set of vendor declarations. */
export function vocabularyOf(vendors: readonly Vendor[]): Vocabulary {
  const prefixes = new Set<string>();
  const services = new Set<string>();
  const words = new Set<string>();
  for (const v of vendors) {
    for (const c of v.auth.credentials) if (c.prefix) prefixes.add(c.prefix);
    for (const r of v.resources) {
      if (r.id.format === "prefixed" && r.id.prefix) prefixes.add(r.id.prefix);
      for (const f of r.fields) if (isCompound(f.name)) words.add(f.name);
    }
    for (const g of v.gateways) if ("service" in g && typeof g.service === "string") services.add(g.service);
    collectValues(v, "", words);
  }
  const byLength = (a: string, b: string) => b.length - a.length || a.localeCompare(b);
  return {
    brands: vendors.map((v) => ({ id: v.id, name: v.name, envPrefix: v.envPrefix })),
    prefixes: [...prefixes].sort(byLength),
    services: [...services].sort(byLength),
    words: [...words].sort(byLength),
  };
}
