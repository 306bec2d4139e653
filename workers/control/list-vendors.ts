import { VENDORS } from "../../declarations/vendors/index.ts";
import type { AppContext } from "./world-lookup.ts";

/** `GET /v1/vendors`: the declared vendors and their checkpoints. */
export function listVendors(c: AppContext): Response {
  return c.json({
    vendors: Object.values(VENDORS).map((v) => ({ id: v.id, name: v.name, category: v.category, checkpoints: [0, ...v.timeline.map((t) => t.checkpoint)] })),
  });
}
