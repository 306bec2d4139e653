import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyWorkspace } from "./workspace.ts";

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-ws-test-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("copyWorkspace", () => {
  it("grades a connector with the task's own materials: an edited sheet, an added file and a linked-away folder are not what it reads", () => {
    const starter = folder({ "input/sheet.csv": "id,start\n1,2025-11-04 8:30\n", "data/hires.json": "[1]\n", "src/main.ts": "// starter\n" });
    const secret = folder({ "passwd.txt": "host file\n" });
    const connector = folder({ "input/sheet.csv": "id,start\n1,2025-11-04 08:30\n", "input/extra.csv": "made up\n", "src/main.ts": "// the connector\n", "notes.md": "mine\n" });
    symlinkSync(secret, join(connector, "data"));

    const ws = copyWorkspace(connector, undefined, starter);
    expect(readFileSync(join(ws, "input/sheet.csv"), "utf8")).toBe("id,start\n1,2025-11-04 8:30\n");
    expect(existsSync(join(ws, "input/extra.csv"))).toBe(false);
    expect(lstatSync(join(ws, "data")).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(ws, "data/hires.json"), "utf8")).toBe("[1]\n");
    expect(existsSync(join(ws, "data/passwd.txt"))).toBe(false);
    // The connector's own code and files stay its own.
    expect(readFileSync(join(ws, "src/main.ts"), "utf8")).toBe("// the connector\n");
    expect(readFileSync(join(ws, "notes.md"), "utf8")).toBe("mine\n");
    // The host's file behind the link is untouched.
    expect(readFileSync(join(secret, "passwd.txt"), "utf8")).toBe("host file\n");
  });

  it("gives back a deleted material folder, and copies the folder as it is when no starter is named", () => {
    const starter = folder({ "input/sheet.csv": "a\n", "src/main.ts": "" });
    const connector = folder({ "src/main.ts": "// no input left\n", "input2/x": "kept\n" });
    expect(readFileSync(join(copyWorkspace(connector, undefined, starter), "input/sheet.csv"), "utf8")).toBe("a\n");

    const edited = folder({ "input/sheet.csv": "edited\n", "src/main.ts": "" });
    expect(readFileSync(join(copyWorkspace(edited), "input/sheet.csv"), "utf8")).toBe("edited\n");
    expect(readFileSync(join(copyWorkspace(connector, undefined, starter), "input2/x"), "utf8")).toBe("kept\n");
  });
});
