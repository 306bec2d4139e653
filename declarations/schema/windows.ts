import type { z } from "zod";
import { WINDOW_STYLES } from "../../mechanics/windows/index.ts";
import { unionOf } from "../../mechanics/kit/union.ts";

/**
 * A list read one time window at a time over one timestamp field of its
 * records: one style module of `mechanics/windows/` per `style`.
 */
export const Window = unionOf("style", WINDOW_STYLES);
export type Window = z.infer<typeof Window>;
