/**
 * @module script
 * What the scripted model plays: a list of steps, one per model turn. A step
 * is lane-neutral (write a file, run a command); each protocol adapter turns
 * it into the tool call its lane's CLI knows (Claude Code's `Write`, Codex's
 * `apply_patch` or shell, OpenCode's `write`, the direct loop's `write_file`).
 */
import { z } from "zod";

export const ScriptStep = z.discriminatedUnion("kind", [
  /** Plain assistant text, no tool call. */
  z.object({ kind: z.literal("say"), text: z.string() }),
  /** Write a whole file (path absolute inside the sandbox, e.g. `/workspace/repo/src/main.ts`). */
  z.object({ kind: z.literal("write"), path: z.string(), content: z.string() }),
  /** Run a shell command (cwd `/workspace`). */
  z.object({ kind: z.literal("bash"), command: z.string() }),
  /** Read a file. */
  z.object({ kind: z.literal("read"), path: z.string() }),
  /** Final answer: the agent says it is finished. */
  z.object({ kind: z.literal("done"), text: z.string() }),
  /** The provider fails this turn (HTTP status and body as the real provider would send). */
  z.object({ kind: z.literal("fail"), status: z.number().int(), body: z.string() }),
]);
export type ScriptStep = z.infer<typeof ScriptStep>;

export const Script = z.object({
  name: z.string(),
  /** Model name the server reports. */
  model: z.string().default("scripted"),
  steps: z.array(ScriptStep).min(1),
});
export type Script = z.infer<typeof Script>;
