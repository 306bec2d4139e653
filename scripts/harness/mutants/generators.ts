/**
 * @module generators
 * Shared mutant generators: integration mistakes common to many tasks, found
 * in gold's source by pattern. Each generator looks at gold's files and
 * returns the patches that make the mistake, or nothing where gold has no
 * such code.
 */
import { readFileSync } from "node:fs";
import type { Mutant, MutantPatch } from "../../../declarations/tasks/shared/mutant.ts";

export type MutantGenerator = {
  /** Mutant id the generator produces, prefixed `shared-`. */
  id: string;
  mistake: string;
  /**
   * The checks (by name) the mistake is aimed at, when it breaks more than it means to:
   * a leaked credential also fails the requests it rides on. Its kills of other checks
   * are collateral, reported apart in the matrix.
   */
  aimsAt?: string[];
} & (
  | {
      /** Patterns of the code it mutates (global) and what each match becomes. */
      rules: { pattern: RegExp; replace: (match: string, ...groups: string[]) => string }[];
    }
  | {
      /** Code put at the top of the entry script: it wraps what the connector does (its `fetch`). */
      prelude: string;
    }
);

const preludeFile = (name: string) => readFileSync(new URL(`./preludes/${name}.js`, import.meta.url), "utf8");

/** A prelude's code, from `preludes/<name>.js` beside this module, in a block of its own after `credentialFor(url)`. */
const prelude = (name: string) => `{\n${preludeFile("credential-for")}\n${preludeFile(name)}}\n`;

export const GENERATORS: readonly MutantGenerator[] = [
  {
    id: "shared-credential-in-query",
    mistake: "the API credential rides in the query string (?api_key=...), where every access log keeps it",
    prelude: prelude("credential-in-query"),
    aimsAt: ["no_credentials_in_query_string"],
  },
  {
    id: "shared-secret-in-body",
    mistake: "the client secret is echoed to the vendor: in every JSON or form body, and as a path segment of requests without one",
    prelude: prelude("secret-in-body"),
    aimsAt: ["no_secrets_echoed_to_vendor"],
  },
  {
    id: "shared-retry-after-ignored",
    mistake: "Retry-After is ignored: a 429 or 503 is retried without waiting as long as the vendor asked",
    // The whole receiver is replaced, optional chains included: res?.headers.get("retry-after").
    rules: [{ pattern: /\b[\w$]+(?:\??\.[\w$]+)*\??\.get\(\s*(["'`])retry-after\1\s*\)/gi, replace: () => "(null as string | null)" }],
  },
  {
    id: "shared-no-wait",
    mistake: "every wait is dropped: retries and backoff fire at once",
    // The delay may nest parentheses two deep: setTimeout(r, (Number.isFinite(s) ? s : 1) * 1000).
    rules: [{ pattern: /\bsetTimeout\(\s*(\w+)\s*,\s*(?:[^()]|\((?:[^()]|\([^()]*\))*\))+\)/g, replace: (_m, fn) => `setTimeout(${fn}, 0)` }],
  },
  {
    id: "shared-idempotency-key-dropped",
    mistake: "writes go out without their Idempotency-Key, so a retried write can apply twice",
    rules: [
      // headers["Idempotency-Key"] = key;
      { pattern: /\w+\[\s*(["'])idempotency-key\1\s*\]\s*=\s*[^;\n]+;?/gi, replace: () => "void 0;" },
      // { "Idempotency-Key": key, ... }
      { pattern: /(["'])idempotency-key\1\s*:\s*(?:`[^`]*`|[^,}\n]+)\s*,?/gi, replace: () => "" },
    ],
  },
];

/** Source files a generator may touch: TypeScript and JavaScript under the connector's root. */
export const SOURCE_FILE = /\.(?:[cm]?[jt]s)$/;

/** The shared mutants that apply to gold's files (path -> text; `entry` the entry script): one per generator that finds its pattern. */
export function sharedMutants(files: ReadonlyMap<string, string>, entry: string): Mutant[] {
  const out: Mutant[] = [];
  for (const g of GENERATORS) {
    if ("prelude" in g) {
      if ([...files.values()].some((t) => t.includes("fetch("))) out.push({ id: g.id, mistake: g.mistake, patches: [{ file: entry, prepend: g.prelude }], ...(g.aimsAt ? { aimsAt: g.aimsAt } : {}) });
      continue;
    }
    const patches: MutantPatch[] = [];
    for (const [file, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      if (!SOURCE_FILE.test(file)) continue;
      for (const rule of g.rules) {
        // One patch per distinct matched text, replacing each of its occurrences.
        const found = new Map<string, { count: number; replace: string }>();
        for (const m of text.matchAll(rule.pattern)) {
          const prev = found.get(m[0]);
          found.set(m[0], { count: (prev?.count ?? 0) + 1, replace: rule.replace(m[0], ...m.slice(1).map((s) => s ?? "")) });
        }
        for (const [find, { count, replace }] of found) patches.push({ file, find, replace, count });
      }
    }
    if (patches.length) out.push({ id: g.id, mistake: g.mistake, patches });
  }
  return out;
}
