import { Paging } from "../../mechanics/paging/index.ts";

export { NextLink } from "../../mechanics/paging/define.ts";

/** How a list pages: one style module of `mechanics/paging/` per `style`. */
export { Paging };
