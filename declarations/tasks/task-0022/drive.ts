import { defineDrives } from "../../schema/task.ts";
import task, { CREATE_LOST, FIRST_READ_429, LOST_ANSWER, MOVE_REFUSED, ROLE } from "./task.ts";

/** How each scenario of task-0022 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  push_batch: async (h) => {
    await h.snapshot("before");
    await h.run("push", ["push"]);
    await h.snapshot("after");
  },
  maintenance_stops_and_resume: async (h) => {
    await h.recreate(ROLE, 0, { faults: [CREATE_LOST, LOST_ANSWER, MOVE_REFUSED] });
    await h.snapshot("before");
    await h.run("stopped_at_create", ["push"]);
    await h.snapshot("stopped_at_create");
    await h.clearOutputs();
    await h.run("stopped_at_move", ["push"]);
    await h.snapshot("stopped_at_move");
    await h.clearOutputs();
    await h.run("resumed", ["push"]);
    await h.snapshot("resumed");
    await h.clearOutputs();
    await h.run("rerun", ["push"]);
    await h.snapshot("rerun");
  },
  poll_catch_up: async (h) => {
    await h.run("first_poll", ["poll"]);
    await h.snapshot("first");
    await h.recreate(ROLE, 1, { faults: [FIRST_READ_429] });
    await h.run("catch_up", ["poll"]);
    await h.snapshot("catch_up");
    await h.recreate(ROLE, 2);
    await h.run("second_catch_up", ["poll"]);
    await h.snapshot("second_catch_up");
  },
});
