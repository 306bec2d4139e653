/**
 * @module held-out-none
 * What `#held-out` resolves to when no folder of held-out tasks is mounted:
 * none. The CLI mounts one from `WIREBENCH_TASKS` or `--tasks DIR`
 * (scripts/harness/held-out.ts) and then resolves `#held-out` to the registry
 * it generated for them.
 */
import type { TaskEntry } from "./index.ts";

export const HELD_OUT: readonly TaskEntry[] = [];
