import type { z } from "zod";
import { GATEWAY_STYLES } from "../../mechanics/gateways/index.ts";
import { unionOf } from "../../mechanics/kit/union.ts";

/** An RPC endpoint taking every call as an XML document: one style module of `mechanics/gateways/` per `style`. */
export const Gateway = unionOf("style", GATEWAY_STYLES);
export type Gateway = z.infer<typeof Gateway>;
