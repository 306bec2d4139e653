/**
 * @module lanes
 * Every agent lane: the only list.
 */
import { claudeCodeLane } from "./claude-code.ts";
import { codexLane } from "./codex.ts";
import { directLane } from "./direct.ts";
import { opencodeLane } from "./opencode.ts";
import type { Lane } from "./lane.ts";

export const LANES: Lane[] = [claudeCodeLane, codexLane, opencodeLane, directLane];

export function findLane(id: string): Lane | undefined {
  return LANES.find((l) => l.id === id);
}
