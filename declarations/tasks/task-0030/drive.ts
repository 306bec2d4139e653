import { defineDrives } from "../../schema/task.ts";
import task, { CHECKS_DRIFT, ROLE, TOKEN_CLOCK, TOKENS_REVOKED } from "./task.ts";

/** How the scenario of task-0030 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  cutover: async (h) => {
    await h.recreate(ROLE, 0);
    await h.run("legacy_feed", ["legacy-feed"], { timeoutMs: 60_000 });
    await h.snapshot("cp0");
    await h.recreate(ROLE, 1, { faults: [TOKENS_REVOKED, TOKEN_CLOCK, CHECKS_DRIFT] });
    await h.run("cutover_feed", ["feed"], { timeoutMs: 60_000 });
    await h.snapshot("cp1");
    await h.recreate(ROLE, 2, { faults: [TOKEN_CLOCK] });
    await h.run("next_feed", ["feed"], { timeoutMs: 60_000 });
    await h.snapshot("cp2");
  },
});
