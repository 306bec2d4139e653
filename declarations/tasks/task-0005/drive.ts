import { defineDrives } from "../../schema/task.ts";
import task, { CREATE_500 } from "./task.ts";

/** How each scenario of task-0005 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  migrate_and_rerun: async (h) => {
    // TalentForge stores the second create of the run and then answers 500: the retry must not make a second person.
    await h.recreate("target", 1, { faults: [CREATE_500] });
    await h.snapshot("start");
    await h.run("migrate", ["migrate"]);
    await h.snapshot("after_migrate");
    await h.run("rerun", ["migrate"]);
    await h.snapshot("after_rerun");
  },
  delta_then_cutover: async (h) => {
    // A dry run against last week's HireWire; HireWire moves on (new
    // candidates, deleted ones, stage changes); the final run catches up;
    // then cut-over, and the provenance notes (run twice).
    await h.recreate("legacy", 0);
    await h.snapshot("start");
    await h.run("dry_run", ["migrate"]);
    await h.recreate("legacy", 1);
    await h.run("final", ["migrate"]);
    await h.snapshot("after_final");
    await h.run("annotate", ["annotate"]);
    await h.snapshot("annotated");
    await h.run("annotate_again", ["annotate"]);
    await h.snapshot("annotated_again");
  },
});
