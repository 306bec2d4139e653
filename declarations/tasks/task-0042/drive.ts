import { defineDrives } from "../../schema/task.ts";
import task, { AVAILABILITY_DRIFT, BLOCKS_500, OFFERS_LAPSED, CALENDAR_CHECKPOINT, CALENDARS, ROLE, SATURDAY, TUESDAY } from "./task.ts";

/** How each scenario of task-0042 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  two_mornings: async (h) => {
    await h.recreate(ROLE, CALENDAR_CHECKPOINT, { faults: [OFFERS_LAPSED, BLOCKS_500, AVAILABILITY_DRIFT] });
    await h.run("tuesday", ["board", "--date", TUESDAY]);
    // The calendars as the board read them: the lapsed offers' bookings already `expired` (the lapse lands on the first request).
    await h.snapshot(CALENDARS);
    // Another evening on the same calendars: workers post availability while this board reads it too.
    await h.recreate(ROLE, CALENDAR_CHECKPOINT, { faults: [OFFERS_LAPSED, AVAILABILITY_DRIFT] });
    await h.run("saturday", ["board", "--date", SATURDAY]);
  },
});
