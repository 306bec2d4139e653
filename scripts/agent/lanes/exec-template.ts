/**
 * @module exec-template
 * What the exec lane is told on the command line, checked before anything
 * starts: the command template (`--cmd`, run by `/bin/sh -c` inside the
 * sandbox with its placeholders replaced by single-quoted paths), the hosts
 * its agent may reach (`--allow-host`) and the host variables it is handed
 * (`--pass-env`).
 */
import { UsageError } from "../../kit/usage-error.ts";

/** The placeholders of a template, by name. */
export type Placeholders = Record<"prompt_file" | "workspace" | "agent_dir", string>;

const PLACEHOLDER = /\{(prompt_file|workspace|agent_dir)\}/g;

/** `s` as one word of a POSIX shell command line, whatever it holds. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell command a template stands for, with each placeholder replaced by
 * its path as one quoted word. A placeholder must stand outside quotes (the
 * replacement brings its own), and the template must hold a command besides
 * its placeholders.
 */
export function renderTemplate(template: string, values: Placeholders): string {
  if (template.includes("\0")) throw new UsageError("--cmd holds a NUL byte");
  if (!template.replace(PLACEHOLDER, "").trim()) throw new UsageError(`--cmd must name a command to run, got "${template}"`);
  let out = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    // A backslash escapes the next character, except inside single quotes.
    if (quote !== "'" && c === "\\") {
      out += template.slice(i, i + 2);
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      if (quote === null) quote = c;
      else if (quote === c) quote = null;
      out += c;
      continue;
    }
    // `${workspace}` is the shell's parameter expansion, not a placeholder.
    const m = c === "{" && template[i - 1] !== "$" ? /^\{(prompt_file|workspace|agent_dir)\}/.exec(template.slice(i)) : null;
    if (m) {
      if (quote !== null) throw new UsageError(`--cmd: leave ${m[0]} outside quotes (it is replaced by a quoted path)`);
      out += shellQuote(values[m[1] as keyof Placeholders]);
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  if (quote !== null) throw new UsageError(`--cmd has an unterminated ${quote} quote`);
  return out;
}

/** Whether a template uses a placeholder. */
export function usesPlaceholder(template: string, name: keyof Placeholders): boolean {
  return template.includes(`{${name}}`);
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * `--allow-host host[:port]` as the proxy's `host:port` (port 443 by default).
 * A DNS name with a dot and a non-numeric top label: no address literal, no
 * `localhost`, nothing of the machine's own (the farm's control plane is there).
 */
export function parseAllowHost(value: string): string {
  const m = /^([^:]+)(?::(\d{1,5}))?$/.exec(value.trim());
  const bad = (why: string) => new UsageError(`--allow-host takes a host name with an optional port (api.example.com or api.example.com:8443), got "${value}": ${why}`);
  if (!m) throw bad("not host[:port]");
  const host = m[1]!.toLowerCase().replace(/\.$/, "");
  const port = m[2] === undefined ? 443 : Number(m[2]);
  if (port < 1 || port > 65535) throw bad("the port is out of range");
  const labels = host.split(".");
  if (host.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) throw bad("not a DNS name");
  if (/^\d+$/.test(labels[labels.length - 1]!)) throw bad("an address, not a name");
  if (["localhost", "local", "internal", "localdomain"].includes(labels[labels.length - 1]!)) throw bad("a name of this machine or its network");
  return `${host}:${port}`;
}

/** Variables the harness sets in the sandbox itself: `--pass-env` cannot replace them. */
const HARNESS_VARS = /^(PATH|HOME|TMPDIR|LANG|OUTPUT_DIR|SERVE_PORT|(HTTPS?|NO)_PROXY|(https?|no)_proxy|WIREBENCH_.*|VENDOR_(BASE|DOCS)_URL)$/;

/** `--pass-env NAME...`: each variable's value on this machine (it must be set). */
export function parsePassEnv(names: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--pass-env takes a variable name, got "${name}"`);
    if (HARNESS_VARS.test(name)) throw new UsageError(`--pass-env ${name}: the harness sets that variable in the sandbox itself`);
    const value = env[name];
    if (value === undefined || value === "") throw new UsageError(`--pass-env ${name}: the variable is not set here`);
    out[name] = value;
  }
  return out;
}
