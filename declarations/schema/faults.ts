import { Fault } from "../../mechanics/faults/index.ts";

/**
 * Something the vendor can do to a client mid-run. Declared here (what the
 * vendor can do), armed per scenario at recreate (what it does in this run).
 * Triggers count requests or checkpoints, or virtual seconds on the Durable
 * Object alarm; none depends on how fast the client is. Each kind is a module
 * of `mechanics/faults/`.
 */
export { Fault };
