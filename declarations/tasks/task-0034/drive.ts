import { defineDrives } from "../../schema/task.ts";
import task, { ROLE, TOKEN_CLOCK, TOKENS_REVOKED } from "./task.ts";

/** How the scenario of task-0034 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  archive_holds: async (h) => {
    await h.recreate(ROLE, 0, { faults: [TOKENS_REVOKED, TOKEN_CLOCK] });
    await h.run("archive", ["archive"], { timeoutMs: 120_000 });
    await h.snapshot("end");
  },
});
