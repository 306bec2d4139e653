/**
 * @module faults/export-not-ready
 * The file of a job the status already reports `ready` is not there yet: the
 * first `times` downloads of the named export answer as the vendor answers a
 * download before the job is ready (409, its not-ready code), without using
 * up a download. A client that takes the documented refusal as "not yet",
 * waits and asks again gets the file; one that takes any refusal of the
 * download as the end of the run does not.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("export-not-ready"),
  id: faultId,
  /** The export (its name in the vendor's `exports.resources`) whose downloads are held back. */
  export: z.string(),
  times: z.number().int().positive().default(1),
});

export const exportNotReady = defineFault({
  schema,
  check(f, v, issue) {
    if (!v.exports?.resources.some((x) => x.name === f.export)) issue(["export"], `no export "${f.export}" is declared`);
  },
  hooks: {
    holdsExportFile(f, s, download) {
      if (download.export !== f.export) return false;
      return s.takeOne(f.id, f.times);
    },
  },
});
