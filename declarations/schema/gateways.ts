import { Gateway } from "../../mechanics/gateways/index.ts";

/** An RPC endpoint taking every call as an XML document: one style module of `mechanics/gateways/` per `style`. */
export { Gateway };
