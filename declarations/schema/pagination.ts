import type { z } from "zod";
import { PAGING_STYLES } from "../../mechanics/paging/index.ts";
import { unionOf } from "../../mechanics/kit/union.ts";

export { NextLink } from "../../mechanics/paging/define.ts";

/** How a list pages: one style module of `mechanics/paging/` per `style`. */
export const Paging = unionOf("style", PAGING_STYLES);
export type Paging = z.infer<typeof Paging>;
