import { Window } from "../../mechanics/windows/index.ts";

/**
 * A list read one time window at a time over one timestamp field of its
 * records: one style module of `mechanics/windows/` per `style`.
 */
export { Window };
