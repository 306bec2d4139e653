/**
 * @module write-option-references
 * Checks of a write's optional behaviours against the rest of the
 * declaration: an accepted (202) write needs a webhook that can confirm it,
 * an upload's style checks its fields and inputs, and the route an upload
 * adds is claimed like any other.
 */
import { uploadRoute, uploadStyle } from "../../mechanics/uploads/index.ts";

/** The parts of a write these checks read (structural, like the other reference checks). */
interface WriteShape {
  name: string;
  entity: string;
  method: string;
  op: string;
  errors: string;
  ifMatch?: boolean;
  accepted?: unknown;
  upload?: { style: string };
  inputs: { name: string; type: string; required: boolean; oneOf?: string[] }[];
}

/** What the checks need to know of the vendor. */
interface VendorFacts {
  entities: Map<string, { name: string; fields: { name: string; type: string }[] }>;
  /** Entities whose changes the vendor pushes as webhook events. */
  webhookEntities: readonly string[];
}

type Issue = (path: (string | number)[], message: string) => void;
type Claim = (route: string, where: string, path: (string | number)[]) => void;

/** Checks one write's `accepted` and `upload` options; paths are relative to the write. */
export function checkWriteOptions(w: WriteShape, v: VendorFacts, issue: Issue, claim: Claim): void {
  if (w.accepted) {
    if (!v.webhookEntities.includes(w.entity)) issue(["accepted"], `an accepted write is confirmed by a webhook event, but "${w.entity}" changes are not pushed`);
    if (w.errors !== "http-422") issue(["accepted"], "an accepted write answers 202, which an RPC-style write cannot");
    if (w.op === "bulk-create") issue(["accepted"], "a bulk create answers 207, not 202");
    if (w.ifMatch) issue(["accepted"], "an accepted write cannot also demand If-Match");
    if (w.upload) issue(["accepted"], "an upload is not accepted for later");
  }
  if (w.upload) {
    const entity = v.entities.get(w.entity);
    if (entity) uploadStyle(w.upload).check?.(w.upload as never, { entity, write: w }, issue);
    const route = uploadRoute(w.upload);
    if (route) claim(`${route.method} ${route.path}`, `upload of ${w.name}`, ["upload", "path"]);
  }
}
