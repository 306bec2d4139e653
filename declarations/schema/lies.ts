import { Lie } from "../../mechanics/lies/index.ts";

/**
 * A deliberate documentation error. Each kind names what the docs say; the
 * truth is what the declaration makes the engine do, and the checks reject a
 * lie whose "says" equals that truth or whose subject does not exist. One
 * kind module of `mechanics/lies/` per `kind`.
 */
export { Lie };
export type LieKind = Lie["kind"];
