import type { z } from "zod";
import type { Reference } from "../../mechanics/auth/define.ts";
import { authScheme, tokenMint } from "../../mechanics/auth/index.ts";
import { deleteStyle } from "../../mechanics/deletes/index.ts";
import { exportStyle } from "../../mechanics/exports/index.ts";
import { incrementalStyle } from "../../mechanics/incremental/index.ts";
import { timeFormat } from "../../mechanics/time-formats/index.ts";
import { faultKind } from "../../mechanics/faults/index.ts";
import { windowStyle } from "../../mechanics/windows/index.ts";
import { pagingParamNames } from "../../mechanics/paging/index.ts";
import { checkWriteOptions } from "./write-option-references.ts";
import { checkEmbeds } from "./embeds.ts";
import { regenerationProblem } from "./id-numbers.ts";

type Ctx = z.RefinementCtx;

/** The parts of a vendor the reference checks read (kept structural to avoid a cycle). */
interface VendorShape {
  auth: {
    credentials: { name: string }[];
    mints: ({ kind: string; issues: string; path: string } & Record<string, unknown>)[];
    present: ({ kind: string } & Record<string, unknown>)[];
  };
  resources: {
    name: string;
    id: { format: string; start?: number };
    parent?: string;
    list?: string;
    get?: string;
    stages?: string[];
    incremental: boolean;
    legacyList?: { path: string };
    window?: { style: string };
    fields: { name: string; type: string; nullable?: boolean; nullRate?: number; gen: { gen: string } & Record<string, unknown> }[];
  }[];
  incremental?: { style: string };
  deletes: { mode: string; path?: string };
  writes: { name: string; entity: string; path?: string; method: string; op: string; parentFrom?: string; idempotency?: { in: string }; inputs: { name: string; ref?: string }[] }[];
  timeline: { checkpoint: number; mutations: ({ op: string; entity: string } & Record<string, unknown>)[] }[];
}

/**
 * Checks that every name a declaration uses points at something the same
 * declaration defines, so a typo fails at `wirebench check` and not mid-run.
 */
export function checkVendorReferences(v: VendorShape, ctx: Ctx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const entities = new Map(v.resources.map((r) => [r.name, r]));
  const credentials = new Set(v.auth.credentials.map((c) => c.name));
  const tokens = new Set(v.auth.mints.map((m) => m.issues));

  const checkRefs = (refs: Reference[], at: (string | number)[]) => {
    for (const r of refs) {
      if (r.credential !== undefined && !credentials.has(r.credential)) issue([...at, r.key], `unknown credential "${r.credential}"`);
      if (r.token !== undefined && !tokens.has(r.token)) issue([...at, r.key], `no mint issues token "${r.token}"`);
    }
  };
  v.auth.mints.forEach((m, i) => checkRefs(tokenMint(m).refs(m as never), ["auth", "mints", i]));
  const legacy = (v.auth as { legacy?: { value: { credential?: string } } }).legacy;
  if (legacy && !(legacy.value.credential && credentials.has(legacy.value.credential))) issue(["auth", "legacy", "value"], "the legacy requirement must name a declared credential");
  v.auth.present.forEach((p, i) => checkRefs(authScheme(p).refs(p as never), ["auth", "present", i]));

  const routes = new Map<string, string>();
  const claim = (key: string, where: string, path: (string | number)[]) => {
    const prior = routes.get(key);
    if (prior) issue(path, `route ${key} is already used by ${prior}`);
    routes.set(key, where);
  };
  v.auth.mints.forEach((m, i) => claim(`POST ${m.path}`, `mint ${m.issues}`, ["auth", "mints", i, "path"]));

  v.resources.forEach((r, i) => {
    const names = new Set<string>();
    r.fields.forEach((f, j) => {
      if (names.has(f.name)) issue(["resources", i, "fields", j, "name"], `duplicate field "${f.name}"`);
      names.add(f.name);
      const g = f.gen;
      if (g.gen === "ref" && !entities.has(g.entity as string)) issue(["resources", i, "fields", j, "gen"], `unknown entity "${String(g.entity)}"`);
      if (g.gen === "parent" && !r.parent) issue(["resources", i, "fields", j, "gen"], `"parent" generator on "${r.name}", which has no parent`);
      if (g.gen === "stage" && !r.stages?.length) issue(["resources", i, "fields", j, "gen"], `"stage" generator on "${r.name}", which declares no stages`);
      if ((g.gen === "email" || g.gen === "fullName") && Array.isArray(g.from)) {
        for (const src of g.from as string[]) if (!r.fields.some((x) => x.name === src)) issue(["resources", i, "fields", j, "gen", "from"], `unknown field "${src}"`);
      }
    });
    if (r.parent && !entities.has(r.parent)) issue(["resources", i, "parent"], `unknown entity "${r.parent}"`);
    if (r.parent && r.list && !r.list.includes(":parentId")) issue(["resources", i, "list"], "a subresource list path needs :parentId");
    if (r.get && !r.get.includes(":id")) issue(["resources", i, "get"], "a get path needs :id");
    if (r.list) claim(`GET ${r.list}`, `list ${r.name}`, ["resources", i, "list"]);
    if (r.get) claim(`GET ${r.get}`, `get ${r.name}`, ["resources", i, "get"]);
    if (r.legacyList) {
      if (!r.list) issue(["resources", i, "legacyList"], "a legacy list needs a current list");
      else if (r.parent && !r.legacyList.path.includes(":parentId")) issue(["resources", i, "legacyList", "path"], "a subresource list path needs :parentId");
      claim(`GET ${r.legacyList.path}`, `legacy list ${r.name}`, ["resources", i, "legacyList", "path"]);
    }
    checkEmbeds(r, entities as never, (path, message) => issue(["resources", i, ...path], message));
    if (r.window) {
      if (!r.list) issue(["resources", i, "window"], "a window needs a list");
      const style = windowStyle(r.window);
      const problem = style.checkResource?.(r.window as never, r);
      if (problem) issue(["resources", i, "window"], problem);
      const taken = new Set([
        ...pagingParamNames((r as { paging?: { style: string } }).paging ?? (v as unknown as { paging: { style: string } }).paging),
        ...(r.incremental && v.incremental ? [(v.incremental as { param?: string }).param] : []),
      ]);
      for (const name of Object.values(style.params(r.window as never)))
        if (taken.has(name)) issue(["resources", i, "window"], `window parameter "${name}" is already a paging or incremental parameter`);
    }
    if (r.incremental) {
      if (!v.incremental) issue(["resources", i, "incremental"], "resource is incremental but the vendor declares no incremental filter");
      else {
        const problem = incrementalStyle(v.incremental).checkResource?.(v.incremental, r);
        if (problem) issue(["resources", i, "incremental"], problem);
      }
    }
  });
  const feed = deleteStyle(v.deletes).feed;
  const feedPath = feed?.path(v.deletes);
  if (feedPath) claim(`GET ${feedPath}`, "tombstones", ["deletes", "path"]);

  const exp = (v as unknown as { exports?: { style: string } }).exports;
  if (exp) {
    const style = exportStyle(exp);
    const routes = style.routes(exp);
    claim(`POST ${routes.request}`, "export requests", ["exports"]);
    claim(`GET ${routes.status}`, "export status", ["exports"]);
    claim(`GET ${routes.download}`, "export downloads", ["exports"]);
    style.check?.(exp, v, (path, message) => issue(["exports", ...path], message));
  }

  v.writes.forEach((w, i) => {
    const target = entities.get(w.entity);
    if (!target) issue(["writes", i, "entity"], `unknown entity "${w.entity}"`);
    if (w.op === "update" && w.path && !w.path.includes(":id")) issue(["writes", i, "path"], "an update path needs :id");
    if (w.op !== "update" && target?.parent && !w.parentFrom) issue(["writes", i, "parentFrom"], `creating a "${w.entity}" needs parentFrom`);
    if (w.parentFrom === ":parentId" && !w.path?.includes(":parentId")) issue(["writes", i, "parentFrom"], "parentFrom :parentId needs :parentId in the path");
    if (w.op === "bulk-create" && w.parentFrom === ":parentId") issue(["writes", i, "parentFrom"], "a bulk create takes each item's parent from the item");
    w.inputs.forEach((input, j) => {
      if (input.ref && !entities.has(input.ref)) issue(["writes", i, "inputs", j, "ref"], `unknown entity "${input.ref}"`);
      if (target && !target.fields.some((f) => f.name === input.name) && input.name !== w.parentFrom) issue(["writes", i, "inputs", j, "name"], `"${w.entity}" has no field "${input.name}"`);
    });
    if (w.path) claim(`${w.method} ${w.path}`, `write ${w.name}`, ["writes", i, "path"]);
    checkWriteOptions(
      w as never,
      { entities: entities as never, webhookEntities: (v as { webhooks?: { entities: string[] } }).webhooks?.entities ?? [] },
      (path, message) => issue(["writes", i, ...path], message),
      (route, where, path) => claim(route, where, ["writes", i, ...path]),
    );
  });

  const hooks = (v as unknown as { webhooks?: { entities: string[]; signature: { secret: string }; subscriptionPath?: string; testDelivery?: { path: string } } }).webhooks;
  if (hooks) {
    hooks.entities.forEach((e, i) => entities.has(e) || issue(["webhooks", "entities", i], `unknown entity "${e}"`));
    if (!credentials.has(hooks.signature.secret)) issue(["webhooks", "signature", "secret"], `unknown credential "${hooks.signature.secret}"`);
    if (hooks.subscriptionPath) claim(`POST ${hooks.subscriptionPath}`, "webhook subscriptions", ["webhooks", "subscriptionPath"]);
    if (hooks.testDelivery) claim(`POST ${hooks.testDelivery.path}`, "webhook test deliveries", ["webhooks", "testDelivery", "path"]);
    const ack = (hooks as { ack?: { deadLetterPath: string; fromCheckpoint?: number } }).ack;
    if (ack) claim(`GET ${ack.deadLetterPath}`, "webhook dead letters", ["webhooks", "ack", "deadLetterPath"]);
    if (ack?.fromCheckpoint !== undefined && !v.timeline.some((cp) => cp.checkpoint === ack.fromCheckpoint))
      issue(["webhooks", "ack", "fromCheckpoint"], `the timeline has no checkpoint ${ack.fromCheckpoint}`);
  }

  const clock = (v as unknown as { clock: { format: string; zone?: string; zoneField?: string } }).clock;
  const clockProblem = timeFormat(clock.format).check?.(clock);
  if (clockProblem) issue(["clock", "format"], clockProblem);
  if (clock.zoneField && !v.resources.some((r) => r.fields.some((f) => f.name === clock.zoneField))) issue(["clock", "zoneField"], `no resource has a field "${clock.zoneField}"`);

  const faultIds = new Set<string>();
  (v as unknown as { faults: ({ id: string; kind: string; write?: string; resource?: string } & Record<string, unknown>)[] }).faults.forEach((f, i) => {
    if (faultIds.has(f.id)) issue(["faults", i, "id"], `duplicate fault id "${f.id}"`);
    faultIds.add(f.id);
    if (f.write !== undefined && !v.writes.some((w) => w.name === f.write)) issue(["faults", i, "write"], `unknown write "${f.write}"`);
    if (f.resource !== undefined && !entities.has(f.resource)) return issue(["faults", i, "resource"], `unknown entity "${f.resource}"`);
    faultKind(f.kind).check?.(f as never, v, (path, message) => issue(["faults", i, ...path], message));
  });

  let last = 0;
  /** Id ranges earlier regenerations numbered, per entity. */
  const regenerated = new Map<string, [number, number][]>();
  v.timeline.forEach((cp, i) => {
    if (cp.checkpoint <= last) issue(["timeline", i, "checkpoint"], "checkpoints must be strictly increasing");
    last = cp.checkpoint;
    cp.mutations.forEach((m, j) => {
      const target = entities.get(m.entity);
      if (!target) return issue(["timeline", i, "mutations", j, "entity"], `unknown entity "${m.entity}"`);
      if ((m.op === "advance-stage" || m.op === "reopen-stage") && !target.stages?.length) issue(["timeline", i, "mutations", j], `"${m.entity}" declares no stages`);
      if ((m.op === "advance-stage" || m.op === "reopen-stage") && m.since !== undefined && (m.since as number) >= cp.checkpoint)
        issue(["timeline", i, "mutations", j, "since"], `since must name a checkpoint before ${cp.checkpoint}`);
      if (m.op === "follow-up") {
        if (!target.fields.some((x) => x.name === m.ref)) issue(["timeline", i, "mutations", j, "ref"], `"${m.entity}" has no field "${m.ref}"`);
        if (!target.fields.some((x) => x.gen.gen === "createdAt")) issue(["timeline", i, "mutations", j], `"${m.entity}" has no createdAt field to record a follow-up at`);
      }
      if (m.op === "end") {
        const f = target.fields.find((x) => x.name === m.field);
        if (!f) issue(["timeline", i, "mutations", j, "field"], `"${m.entity}" has no field "${m.field}"`);
        else if (f.type !== "timestamp" || !f.nullable || f.nullRate !== 1)
          issue(["timeline", i, "mutations", j, "field"], `"${m.field}" must be a nullable timestamp that starts null (nullRate 1) to record an end`);
        if ((m.readd as number) > (m.count as number)) issue(["timeline", i, "mutations", j, "readd"], "readd cannot exceed count");
        const due = m.dueInDays as [number, number] | undefined;
        if (due && due[0] > due[1]) issue(["timeline", i, "mutations", j, "dueInDays"], "dueInDays is [min, max]");
        if (due && (m.readd as number) > 0) issue(["timeline", i, "mutations", j, "readd"], "an end scheduled ahead re-adds nothing");
      }
      if (m.op === "update") for (const f of m.fields as string[]) if (!target.fields.some((x) => x.name === f)) issue(["timeline", i, "mutations", j, "fields"], `"${m.entity}" has no field "${f}"`);
      if (m.op === "regenerate") {
        const [restartAt, count] = [m.restartAt as number, m.count as number];
        const ranges = regenerated.get(m.entity) ?? [];
        const problem = regenerationProblem(m.entity, target.id, restartAt, count, ranges);
        if (problem) issue(["timeline", i, "mutations", j, "restartAt"], problem);
        regenerated.set(m.entity, [...ranges, [restartAt, restartAt + count - 1]]);
      }
    });
  });
}
