import type { Resource, Vendor } from "../../declarations/schema/vendor.ts";
import { incrementalStyle } from "../../mechanics/incremental/index.ts";
import { checkpointTime } from "../engine/data/clock.ts";
import type { StateRecord } from "../engine/data/generate.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";
import type { DocModel, DocParam, DocResource } from "./model.ts";
import { docExports } from "./export-model.ts";
import { uploadStyle } from "../../mechanics/uploads/index.ts";
import { windowStyle } from "../../mechanics/windows/index.ts";
import { timeFormat } from "../../mechanics/time-formats/index.ts";

/** Query parameters a list endpoint honours, as the truthful docs describe them. */
/** A list's own query parameters (its paging parameters follow from its paging). */
function ownListParams(vendor: Vendor, r: Resource): DocParam[] {
  // Window bounds are timestamps in the vendor's own format.
  const params: DocParam[] = r.window
    ? windowStyle(r.window)
        .docs.params(r.window as never)
        .map((p) => ({ ...p, schema: { ...timeFormat(vendor.clock.format).docs.schema } }))
    : [];
  if (r.incremental && vendor.incremental) {
    const style = incrementalStyle(vendor.incremental);
    params.push({ name: style.param(vendor.incremental), role: "since", description: style.docs.describe(vendor.incremental) });
  }
  for (const f of r.fields) {
    if (!f.onlyWith) continue;
    // Fields switched on by one flag share one documented parameter.
    const same = params.find((p) => p.role === "flag" && p.name === f.onlyWith!.param && p.value === f.onlyWith!.value);
    if (same) same.description = same.description.replace(/ to include (.*)\.$/, ` to include $1 and \`${f.name}\`.`);
    else params.push({ name: f.onlyWith.param, role: "flag", value: f.onlyWith.value, description: `Set to \`${f.onlyWith.value}\` to include \`${f.name}\`.` });
  }
  return params;
}

/** Fields a create through the API may leave empty (null): not required inputs and not filled by the vendor. */
function nullableByCreate(vendor: Vendor, r: Resource): Set<string> {
  const out = new Set<string>();
  for (const w of vendor.writes) {
    if (w.entity !== r.name || w.op === "update") continue;
    const uploaded = w.upload ? uploadStyle(w.upload).docs.filled(w.upload) : [];
    for (const f of r.fields) {
      const filled = ["id", "createdAt", "updatedAt", "parent", "const", "stage"].includes(f.gen.gen) || f.name === w.parentFrom || uploaded.includes(f.name);
      if (!filled && !w.inputs.some((i) => i.name === f.name && i.required)) out.add(f.name);
    }
  }
  return out;
}

/** The first gateway operation that lists or reads a resource, with its gateway's path. */
function gatewayOperation(vendor: Vendor, resource: string, action: "list" | "get"): { path: string; name: string } | undefined {
  for (const g of vendor.gateways) {
    const op = g.operations.find((o) => o.action === action && o.resource === resource);
    if (op) return { path: g.path, name: op.name };
  }
  return undefined;
}

function docResource(vendor: Vendor, r: Resource, examples: StateRecord[]): DocResource {
  // Each list gets its own copy: a lie told about one list must not change the others.
  const paging = structuredClone(r.paging ?? vendor.paging);
  const emptyOnCreate = nullableByCreate(vendor, r);
  const live = examples.filter((x) => x.entity === r.name && x.deletedMs === null);
  // A subresource's example page is one parent's records, as its list path serves them.
  const shown = r.parent && live.length ? live.filter((x) => x.parent === live[0].parent) : live;
  const listOperation = gatewayOperation(vendor, r.name, "list");
  const getOperation = gatewayOperation(vendor, r.name, "get");
  return {
    name: r.name,
    plural: r.plural,
    description: r.description,
    idField: r.idField,
    idFormat: r.id,
    parent: r.parent,
    fields: r.fields.map((f) => ({
      name: f.name,
      type: f.type,
      description: f.description,
      nullable: f.nullable || emptyOnCreate.has(f.name),
      onlyWith: f.onlyWith,
      refersTo: f.gen.gen === "ref" ? f.gen.entity : f.gen.gen === "parent" ? r.parent : undefined,
    })),
    list: r.list
      ? {
          path: r.list,
          paging,
          incremental: r.incremental,
          params: ownListParams(vendor, r),
          ...(r.skipsAtPageBoundary ? { skipsAtPageBoundary: r.skipsAtPageBoundary } : {}),
          ...(r.window ? { window: { declared: structuredClone(r.window), historyStart: isoDay(windowStyle(r.window).docs.historyStartMs(r.window as never, checkpointTime(vendor.clock, 0))) } } : {}),
        }
      : listOperation
        ? { path: listOperation.path, paging, incremental: r.incremental, params: ownListParams(vendor, r), operation: listOperation.name }
        : undefined,
    get: r.get ? { path: r.get } : getOperation ? { path: getOperation.path, operation: getOperation.name } : undefined,
    legacyList: r.legacyList ? { ...r.legacyList } : undefined,
    count: shown.length,
    embeds: r.embeds.map((e) => ({ ...e })),
    examples: shown.slice(0, 2).map((x) => ({ id: x.id, data: x.data, deleted: false, ...embeddedExamples(r, x, examples) })),
  };
}

/** Every live child of an example record, per embed (the docs cut them as they describe the embed). */
function embeddedExamples(r: Resource, x: StateRecord, examples: StateRecord[]): { children?: Record<string, { id: string; data: Record<string, unknown>; deleted: boolean }[]> } {
  if (!r.embeds.length) return {};
  const children = Object.fromEntries(
    r.embeds.map((e) => [e.field, examples.filter((c) => c.entity === e.entity && c.parent === x.id && c.deletedMs === null).map((c) => ({ id: c.id, data: c.data, deleted: false }))]),
  );
  return { children };
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Truthful release history: when each resource and write became available. */
function trueChangelog(vendor: Vendor): DocModel["changelog"] {
  const epoch = checkpointTime(vendor.clock, 0);
  const day = 86_400_000;
  const entries = [
    {
      version: "1.0",
      date: isoDay(epoch - 900 * day),
      text: `First public release: ${vendor.resources
        .filter((r) => r.list || vendor.gateways.some((g) => g.operations.some((o) => o.resource === r.name)))
        .map((r) => r.plural)
        .join(", ")}.`,
    },
  ];
  if (vendor.writes.length) entries.push({ version: "1.4", date: isoDay(epoch - 520 * day), text: `Write endpoints: ${vendor.writes.map((w) => w.name).join(", ")}.` });
  if (vendor.rateLimit) entries.push({ version: "1.6", date: isoDay(epoch - 300 * day), text: "Per-client request quotas are enforced on every endpoint." });
  const from = ackFrom(vendor);
  if (from)
    entries.push({
      version: "1.8",
      date: isoDay(Date.parse(from) - 21 * day),
      text: `Webhook acknowledgement protocol: from ${from}, a delivery counts only when your endpoint's answer acknowledges the event (see Webhooks, Retries); events never acknowledged wait in a dead-letter queue.`,
    });
  return entries;
}

/** When a vendor switched the ack-body protocol on later: the instant of that checkpoint (ISO 8601, UTC). */
function ackFrom(vendor: Vendor): string | undefined {
  const cp = vendor.webhooks?.ack?.fromCheckpoint;
  return cp === undefined ? undefined : new Date(checkpointTime(vendor.clock, cp)).toISOString().replace(".000Z", "Z");
}

/** Marker printed in every generated set, unique per release and vendor, to spot leaks into training data. */
export function canaryFor(release: string, vendorId: string): string {
  let h = 0x811c9dc5;
  for (const ch of `wirebench|${release}|${vendorId}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `WIREBENCH-CANARY-${release}-${vendorId}-${h.toString(16).padStart(8, "0")}`;
}

/** The documentation model of a vendor as it really behaves (the `true` profile). */
export function truthfulModel(vendor: Vendor, opts: { baseUrl: string; release: string; examples: StateRecord[] }): DocModel {
  return {
    vendor: { id: vendor.id, name: vendor.name, category: vendor.category, summary: vendor.summary, envPrefix: vendor.envPrefix },
    profile: "true" as DocsProfile,
    baseUrl: opts.baseUrl,
    canary: canaryFor(opts.release, vendor.id),
    timeFormat: vendor.clock.format,
    timeZone: { zone: vendor.clock.zone, zoneField: vendor.clock.zoneField },
    serverTimeHeader: vendor.clock.serverTimeHeader,
    credentials: structuredClone(vendor.auth.credentials),
    mints: structuredClone(vendor.auth.mints),
    present: structuredClone(vendor.auth.present),
    legacy: vendor.auth.legacy ? structuredClone(vendor.auth.legacy) : undefined,
    paging: structuredClone(vendor.paging),
    envelope: { ...vendor.envelope },
    errors: { ...vendor.errors },
    incremental: vendor.incremental ? { ...vendor.incremental } : undefined,
    deletes: structuredClone(vendor.deletes),
    rateLimit: vendor.rateLimit ? { ...vendor.rateLimit } : undefined,
    webhooks: vendor.webhooks ? structuredClone(vendor.webhooks) : undefined,
    ackFrom: ackFrom(vendor),
    resources: vendor.resources.map((r) => docResource(vendor, r, opts.examples)),
    writes: structuredClone(vendor.writes),
    exports: docExports(vendor, (r) => docResource(vendor, r, [])),
    gateways: structuredClone(vendor.gateways),
    changelog: trueChangelog(vendor),
    lies: [],
  };
}
