import { defineDrives } from "../../schema/task.ts";
import task, { ATS, ATS_FAULTS, LEGACY } from "./task.ts";

/** How long the cut-over night's run may take before the scheduler stops it: less than a full back-fill of StaffLine takes. */
const CUTOVER_WINDOW_MS = 3_000;

/** How the scenario of task-0037 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  replatform_backfill: async (h) => {
    // Cut-over night: StaffLine as the desk left it, Bullpen under the week's write trouble.
    await h.recreate(LEGACY, 0);
    await h.recreate(ATS, 0, { faults: ATS_FAULTS });
    await h.snapshot("before");
    // The change window closes a few seconds in: the scheduler stops the run wherever it is.
    await h.run("cutover_night", ["migrate"], { timeoutMs: CUTOVER_WINDOW_MS });
    await h.snapshot("cutover");
    // The nights after: StaffLine moves on (new registrations, edits, people forgotten); Bullpen keeps its copies.
    for (const [checkpoint, night] of [
      [1, "next"],
      [2, "third"],
    ] as const) {
      await h.recreate(LEGACY, checkpoint);
      await h.snapshot(`${night}_start`);
      await h.run(`${night}_night`, ["migrate"]);
      await h.snapshot(night);
    }
  },
});
