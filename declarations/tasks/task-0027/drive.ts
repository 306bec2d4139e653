import { defineDrives } from "../../schema/task.ts";
import task, { CUTOVER_429, ROLE, TOKEN_RETIRED } from "./task.ts";

/** How the scenario of task-0027 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  cutover_off_the_app_token: async (h) => {
    // The Classic job's last finished night.
    await h.recreate(ROLE, 0);
    await h.run("classic_last_good_night", ["classic-sync"]);
    await h.snapshot("cp0");
    // The next night Bullpen retires the app token while the Classic job runs.
    await h.recreate(ROLE, 1, { faults: [TOKEN_RETIRED] });
    await h.run("classic_token_retired", ["classic-sync"]);
    // The night after, the new job takes over, through a rate-limit window.
    await h.recreate(ROLE, 2, { faults: [CUTOVER_429] });
    await h.run("first_sync", ["sync"]);
    await h.snapshot("cp2");
    await h.recreate(ROLE, 3);
    await h.run("next_sync", ["sync"]);
    await h.snapshot("cp3");
  },
});
