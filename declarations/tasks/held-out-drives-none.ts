/**
 * @module held-out-drives-none
 * What `#held-out-drives` resolves to when no folder of held-out tasks is
 * mounted: no drives (see held-out-none.ts).
 */
import type { Drives } from "../schema/task.ts";

export const HELD_OUT_DRIVES: Readonly<Record<string, Drives>> = {};
