import { defineDrives } from "../../schema/task.ts";
import task, { BACKFILL_FAULTS, EXTENSION_END_FAULTS, EXTENSION_FAULTS, MONDAY_FAULTS } from "./task.ts";

const ROLE = "book";

/** How each scenario of task-0052 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  monday_desk: async (h) => {
    // The board is built while PlaceMint revokes a token, rate-limits, fails a page and the placement list drifts.
    await h.recreate(ROLE, 2, { faults: BACKFILL_FAULTS });
    await h.run("sync", ["sync"]);
    await h.snapshot("synced");
    // Monday morning arrives by webhook: twice, forged, replayed late, a placement change and a deletion never sent.
    await h.listen(["serve"]);
    await h.recreate(ROLE, 3, { faults: MONDAY_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("listened");
    await h.stopListener();
    // The catch-up: the board to PlaceMint again, and the close-outs of what ended since the first sync.
    await h.run("catchup", ["sync"]);
    await h.snapshot("end");
    // Later in the week: placements that ended on Monday are extended (back to active), and a sync sees them so.
    await h.recreate(ROLE, 6, { faults: EXTENSION_FAULTS });
    await h.run("extended", ["sync"]);
    await h.snapshot("extended");
    // The extensions end while the listener runs (pushed twice, the version before an end delivered after it):
    // each is a new ending, closed out again by the listener or the next sync.
    await h.listen(["serve"]);
    await h.recreate(ROLE, 7, { faults: EXTENSION_END_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("reended_listened");
    await h.stopListener();
    await h.run("extension_ended", ["sync"]);
    await h.snapshot("reended");
  },
});
