import { readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { DeclarationError } from "../../../declarations/schema/define.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { projectRoot } from "../../farm/paths.ts";
import { UsageError } from "../errors.ts";

function vendorFiles(): string[] {
  const dir = join(projectRoot(), "declarations", "vendors");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && f !== "index.ts" && !f.endsWith(".test.ts"))
    .sort()
    .map((f) => join(dir, f));
}

/** `wirebench check [files...]`: loads and validates vendor declarations; exit 2 if any is invalid. */
export async function check(files: string[], opts: { json?: boolean }): Promise<void> {
  const targets = files.length ? files.map((f) => resolve(f)) : vendorFiles();
  const results: { file: string; ok: boolean; vendor?: string; summary?: string; error?: string }[] = [];
  for (const file of targets) {
    try {
      const mod = (await import(pathToFileURL(file).href)) as { default?: Vendor };
      if (!mod.default?.id) throw new Error("the module has no default export made with defineVendor()");
      const v = mod.default;
      const routes = v.resources.filter((r) => r.list).length + v.resources.filter((r) => r.get).length + v.writes.length + v.auth.mints.length;
      results.push({ file, ok: true, vendor: v.id, summary: `${v.resources.length} resources, ${routes} routes, ${v.timeline.length} checkpoints` });
    } catch (err) {
      if (err instanceof DeclarationError || err instanceof Error) results.push({ file, ok: false, error: err.message });
      else throw err;
    }
  }
  if (opts.json) console.log(JSON.stringify({ ok: results.every((r) => r.ok), results }, null, 2));
  else
    for (const r of results) {
      if (r.ok) console.log(`ok    ${r.vendor}: ${r.summary}`);
      else console.log(`FAIL  ${basename(r.file)}: ${r.error}`);
    }
  const failed = results.filter((r) => !r.ok);
  if (failed.length) throw new UsageError(`${failed.length} declaration${failed.length > 1 ? "s are" : " is"} invalid`);
}
