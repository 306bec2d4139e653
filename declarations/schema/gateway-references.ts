import type { z } from "zod";
import { deleteStyle } from "../../mechanics/deletes/index.ts";

/** The parts of a vendor the gateway checks read (structural, to avoid a cycle). */
interface VendorShape {
  resources: { name: string; list?: string; get?: string }[];
  writes: { name: string; path?: string }[];
  deletes: { mode: string; path?: string };
  gateways: { path: string; operations: { name: string; action: string; resource?: string; write?: string }[] }[];
}

/**
 * Checks that every gateway operation names what it runs, that each name is
 * used once, and that whatever has no path of its own (a write, a deletion
 * feed) is reachable through some operation.
 */
export function checkGateways(v: VendorShape, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const served = { writes: new Set<string>(), feed: false };
  const paths = new Set<string>();
  v.gateways.forEach((g, i) => {
    if (paths.has(g.path)) issue(["gateways", i, "path"], `another gateway already uses ${g.path}`);
    paths.add(g.path);
    const names = new Set<string>();
    g.operations.forEach((op, j) => {
      const at = ["gateways", i, "operations", j];
      if (names.has(op.name)) issue([...at, "name"], `duplicate operation "${op.name}"`);
      names.add(op.name);
      if (op.action === "list" || op.action === "get") {
        if (!op.resource) issue([...at, "resource"], `a ${op.action} operation names its resource`);
        else if (!v.resources.some((r) => r.name === op.resource)) issue([...at, "resource"], `unknown entity "${op.resource}"`);
      }
      if (op.action === "write") {
        if (!op.write) issue([...at, "write"], "a write operation names its write");
        else if (!v.writes.some((w) => w.name === op.write)) issue([...at, "write"], `unknown write "${op.write}"`);
        else served.writes.add(op.write);
      }
      if (op.action === "feed") {
        if (!deleteStyle(v.deletes).feed) issue([...at, "action"], "a feed operation needs a delete style with a feed");
        served.feed = true;
      }
    });
  });
  v.writes.forEach((w, i) => {
    if (!w.path && !served.writes.has(w.name)) issue(["writes", i, "path"], `write "${w.name}" has no path and no gateway operation runs it`);
  });
  const feed = deleteStyle(v.deletes).feed;
  if (feed && !feed.path(v.deletes) && !served.feed) issue(["deletes", "path"], "the deletion feed has no path and no gateway operation lists it");
}
