import type { z } from "zod";
import { unionOf } from "../../mechanics/kit/union.ts";
import { UPLOAD_STYLES } from "../../mechanics/uploads/index.ts";

/** How a write receives a file: one style module of `mechanics/uploads/` per `style`. */
export const Upload = unionOf("style", UPLOAD_STYLES);
export type Upload = z.infer<typeof Upload>;
