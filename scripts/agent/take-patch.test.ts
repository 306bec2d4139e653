import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PATCH_MAX_BYTES, takePatch } from "./take-patch.ts";
import { initBaselineRepo } from "./workspace.ts";

function setup() {
  const root = mkdtempSync(join(tmpdir(), "wb-take-patch-"));
  const starter = join(root, "starter");
  mkdirSync(join(starter, "src"), { recursive: true });
  writeFileSync(join(starter, "src", "main.ts"), "console.log(1);\n");
  const agent = join(root, "agent");
  initBaselineRepo(agent, starter);
  const markers = join(root, "markers");
  mkdirSync(markers);
  return { root, starter, agent, markers };
}

describe("takePatch", () => {
  it("takes the diff without running anything the agent's repository configures", () => {
    const { root, starter, agent, markers } = setup();
    appendFileSync(
      join(agent, ".git", "config"),
      [
        "[core]",
        `\tfsmonitor = touch ${markers}/fsmonitor`,
        `\tpager = touch ${markers}/pager`,
        "[diff]",
        `\texternal = touch ${markers}/external`,
        '[filter "evil"]',
        `\tclean = sh -c 'touch ${markers}/clean; cat'`,
        "[include]",
        `\tpath = ${join(root, "included")}`,
        "",
      ].join("\n"),
    );
    writeFileSync(join(root, "included"), `[core]\n\tfsmonitor = touch ${markers}/included\n`);
    writeFileSync(join(agent, ".git", "hooks", "pre-commit"), `#!/bin/sh\ntouch ${markers}/hook\n`, { mode: 0o755 });
    writeFileSync(join(agent, ".gitattributes"), "* filter=evil diff=evil\n");
    writeFileSync(join(agent, "src", "main.ts"), "console.log(2);\n");
    symlinkSync("/etc/passwd", join(agent, "passwd-link"));
    mkdirSync(join(agent, "node_modules", "left"), { recursive: true });
    writeFileSync(join(agent, "node_modules", "left", "index.js"), "x");
    const r = takePatch(starter, agent);
    expect(readdirSync(markers)).toEqual([]);
    expect(r.ok).toBe(true);
    const patch = (r as { patch: string }).patch;
    expect(patch).toContain("-console.log(1);\n+console.log(2);");
    expect(patch).toMatch(/\+\+\+ b\/passwd-link\n@@ -0,0 \+1 @@\n\+\/etc\/passwd\n/);
    expect(patch).not.toContain("root:x:0:0");
    expect(patch).not.toContain("node_modules");
  });

  it("refuses a patch over the cap with its size", () => {
    const { starter, agent } = setup();
    // Bytes that do not compress: a hash chain.
    const chunks: Buffer[] = [];
    let h = Buffer.from("seed");
    for (let n = 0; n < PATCH_MAX_BYTES; n += 32) chunks.push((h = createHash("sha256").update(h).digest()));
    writeFileSync(join(agent, "blob.bin"), Buffer.concat(chunks));
    const r = takePatch(starter, agent);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/^the patch is \d+ bytes, over the 8388608-byte cap$/) });
  });
});
