import type { z } from "zod";
import { unionOf } from "../../mechanics/kit/union.ts";
import { LIE_KINDS } from "../../mechanics/lies/index.ts";

/**
 * A deliberate documentation error. Each kind names what the docs say; the
 * truth is what the declaration makes the engine do, and the checks reject a
 * lie whose "says" equals that truth or whose subject does not exist. One
 * kind module of `mechanics/lies/` per `kind`.
 */
export const Lie = unionOf("kind", LIE_KINDS);
export type Lie = z.infer<typeof Lie>;
export type LieKind = Lie["kind"];
