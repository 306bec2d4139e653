/**
 * @module mechanic-literals
 * Finds code that names a mechanic kind literally outside the kind's own
 * module: a fault kind, lie kind, auth scheme, token mint, paging style,
 * delete style, signature scheme, incremental style, upload style, window style or time format. Such code switches on
 * a kind the registries should decide, so adding a kind would mean editing
 * it. Run: `node scripts/lint/mechanic-literals.ts [root]`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { AUTH_SCHEMES, TOKEN_MINTS } from "../../mechanics/auth/index.ts";
import { DELETE_STYLES } from "../../mechanics/deletes/index.ts";
import { EXPORT_STYLES } from "../../mechanics/exports/index.ts";
import { GATEWAY_STYLES } from "../../mechanics/gateways/index.ts";
import { FAULT_KINDS } from "../../mechanics/faults/index.ts";
import { INCREMENTAL_STYLES } from "../../mechanics/incremental/index.ts";
import { LIE_KINDS } from "../../mechanics/lies/index.ts";
import { PAGING_STYLES } from "../../mechanics/paging/index.ts";
import { SIGNATURE_SCHEMES } from "../../mechanics/signatures/index.ts";
import { TIME_FORMATS } from "../../mechanics/time-formats/index.ts";
import { UPLOAD_STYLES } from "../../mechanics/uploads/index.ts";
import { WINDOW_STYLES } from "../../mechanics/windows/index.ts";

/** One registered name and the discriminator it is the value of. */
interface MechanicName {
  family: string;
  name: string;
  discriminator: string;
}

/**
 * Code this lint reads: the engine, the mechanics, the schemas and contracts, the scripts.
 * Declarations of vendors and tasks name kinds as data; the documents-only client
 * (`scripts/contract/`) is a client of the documentation, written apart from the mechanics on
 * purpose, and speaks OAuth grant names as any client does.
 */
const SCOPE = ["workers", "mechanics", "declarations/schema", "evidence", "scripts"];
const OUT_OF_SCOPE = [join("scripts", "contract")];

function names(family: string, discriminator: string, registry: readonly { schema: { shape: Record<string, unknown> } }[]): MechanicName[] {
  return registry.map((m) => ({ family, discriminator, name: (m.schema.shape[discriminator] as { value: string }).value }));
}

/** Every registered kind name, from the registries themselves. */
export function mechanicNames(): MechanicName[] {
  return [
    ...names("faults", "kind", FAULT_KINDS),
    ...names("lies", "kind", LIE_KINDS),
    ...names("auth", "kind", AUTH_SCHEMES),
    ...names("auth", "kind", TOKEN_MINTS),
    ...names("paging", "style", PAGING_STYLES),
    ...names("deletes", "mode", DELETE_STYLES),
    ...names("signatures", "scheme", SIGNATURE_SCHEMES),
    ...names("incremental", "style", INCREMENTAL_STYLES),
    ...names("exports", "style", EXPORT_STYLES),
    ...names("gateways", "style", GATEWAY_STYLES),
    ...names("uploads", "style", UPLOAD_STYLES),
    ...names("windows", "style", WINDOW_STYLES),
    ...TIME_FORMATS.map((f) => ({ family: "time-formats", discriminator: "format", name: f.name })),
  ];
}

function filesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e);
    if (e === "node_modules") return [];
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|js|mjs)$/.test(e) && !/\.test\.ts$/.test(e) ? [path] : [];
  });
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Patterns that name `n` as a kind. A name with a hyphen or underscore is
 * distinctive: any string literal of it counts. A plain word (`header`,
 * `page`) counts only where it is compared with, assigned to or switched on
 * as a discriminator.
 */
function patternsFor(n: MechanicName): RegExp[] {
  const q = `["'\`]${escapeRegex(n.name)}["'\`]`;
  if (/[-_]/.test(n.name)) return [new RegExp(q)];
  const disc = "(?:kind|style|mode|scheme|format)";
  return [new RegExp(`\\b${disc}\\s*(?:===|!==|==|!=|:)\\s*${q}`), new RegExp(`${q}\\s*(?:===|!==|==|!=)\\s*[\\w.?]*\\b${disc}\\b`), new RegExp(`\\bcase\\s+${q}\\s*:`)];
}

/** The file that defines a kind: its module, where the name is a schema literal. */
function isOwnModule(file: string, source: string, n: MechanicName): boolean {
  const name = escapeRegex(n.name);
  return file.includes(`${sep}mechanics${sep}${n.family}${sep}`) && new RegExp(`z\\.literal\\(\\s*["']${name}["']\\s*\\)|\\bname:\\s*["']${name}["']`).test(source);
}

export interface LiteralFinding {
  file: string;
  line: number;
  name: string;
  text: string;
}

/** Every place under `root` that names a kind outside the kind's module. */
export function findMechanicLiterals(root: string, all = mechanicNames()): LiteralFinding[] {
  const findings: LiteralFinding[] = [];
  for (const file of SCOPE.flatMap((d) => filesUnder(join(root, d))).filter((f) => !OUT_OF_SCOPE.some((o) => relative(root, f).startsWith(o)))) {
    const source = readFileSync(file, "utf8");
    const lines = source.split("\n");
    for (const n of all) {
      if (isOwnModule(file, source, n)) continue;
      const patterns = patternsFor(n);
      lines.forEach((text, i) => {
        const code = text
          .replace(/\/\*.*?\*\//g, "")
          .replace(/\/\/.*$/, "")
          .replace(/^\s*(\/\*\*?|\*).*$/, "");
        if (patterns.some((p) => p.test(code))) findings.push({ file: relative(root, file), line: i + 1, name: n.name, text: text.trim() });
      });
    }
  }
  return findings;
}

if (import.meta.main) {
  const root = process.argv[2] ?? process.cwd();
  const found = findMechanicLiterals(root);
  for (const f of found) console.log(`${f.file}:${f.line}  "${f.name}"  ${f.text.slice(0, 140)}`);
  console.log(`${found.length} place(s) name a mechanic kind outside its module`);
  process.exitCode = found.length ? 1 : 0;
}
