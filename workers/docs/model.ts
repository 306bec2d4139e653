/**
 * @module model
 * The docs model of a declared vendor: the structural model of
 * `mechanics/kit/doc-model.ts` filled with the whole `Vendor`, which every
 * builder and renderer here reads.
 */
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import type { DocField as FieldOf, DocModel as ModelOf, DocResource as ResourceOf } from "../../mechanics/kit/doc-model.ts";

export { type DocEmbed, type DocExample, type DocParam, listParams } from "../../mechanics/kit/doc-model.ts";

/** Everything the documentation says about a vendor (see `mechanics/kit/doc-model.ts`). */
export type DocModel = ModelOf<Vendor> & { profile: DocsProfile };

/** A documented resource. */
export type DocResource = ResourceOf<Vendor>;

/** A documented field of a resource. */
export type DocField = FieldOf<Vendor>;
