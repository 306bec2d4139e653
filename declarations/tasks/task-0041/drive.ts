import { defineDrives } from "../../schema/task.ts";
import task, { CREATE_502, CREW } from "./task.ts";

/** How task-0041's scenario is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  weekly_import: async (h) => {
    // Sourcewell stays as the harness set it up (the role's starting checkpoint); CrewCall is armed.
    await h.recreate(CREW, 0, { faults: [CREATE_502] });
    await h.snapshot("before");
    await h.run("import", ["import"]);
    await h.run("rerun", ["import"]);
    await h.snapshot("end");
  },
});
