/**
 * @module shared/drive
 * Helpers the scenarios' drive functions share.
 */
import type { DriveContext } from "../../schema/task.ts";

/**
 * Waits until no webhook delivery is pending, twice with a pause between: the
 * world counts a delivery done when its attempt starts, so the first settle can
 * return while the last attempt (or the retry it leads to) is on its way.
 */
export async function settle(h: DriveContext): Promise<void> {
  await h.settleWebhooks();
  await new Promise((r) => setTimeout(r, 400));
  await h.settleWebhooks();
}
