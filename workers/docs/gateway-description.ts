/**
 * @module gateway-description
 * What a gateway's service description says about each operation, read
 * from the documentation model, so the WSDL in a stale documentation set
 * tells the same lies as its pages while the live service tells the truth.
 */
import type { Gateway } from "../../declarations/schema/gateways.ts";
import type { GatewayDescription } from "../../mechanics/gateways/define.ts";
import { gatewayStyle } from "../../mechanics/gateways/index.ts";
import { type DocModel, type DocResource, listParams } from "./model.ts";
import { deleteStyle } from "../../mechanics/deletes/index.ts";
import { timeFormat } from "../../mechanics/time-formats/index.ts";

type Op = GatewayDescription["operations"][number];

function xsdOf(schema: Record<string, unknown> | undefined): string {
  const t = schema?.type;
  return t === "integer" ? "xsd:long" : t === "number" ? "xsd:decimal" : t === "boolean" ? "xsd:boolean" : "xsd:string";
}

function maxOf(schema: Record<string, unknown> | undefined): number | undefined {
  return typeof schema?.maximum === "number" ? schema.maximum : undefined;
}

function fieldType(m: DocModel, r: DocResource, f: DocResource["fields"][number]): string {
  if (f.type === "timestamp") return xsdOf(timeFormat(m.timeFormat).docs.schema as Record<string, unknown>);
  if (f.type === "id") {
    const target = f.name === r.idField ? r : m.resources.find((x) => x.name === f.refersTo);
    return target?.idFormat.format === "int" ? "xsd:long" : "xsd:string";
  }
  return xsdOf({ type: f.type });
}

function recordOutput(m: DocModel, r: DocResource): Op["output"]["fields"] {
  return r.fields.map((f) => ({ name: f.name, type: fieldType(m, r, f), nullable: f.nullable }));
}

function idInput(r: DocResource): Op["inputs"][number] {
  return { name: r.idField, type: r.idFormat.format === "int" ? "xsd:long" : "xsd:string", required: true, role: "id", description: `Id of the ${r.name}.` };
}

function pagedExtra(m: DocModel, paging: { total: boolean; next: string }): Op["output"]["extra"] {
  return [...(paging.total ? [{ name: m.envelope.total, type: "xsd:long" }] : []), ...(paging.next === "body" ? [{ name: m.envelope.next, type: "xsd:string" }] : [])];
}

/** The description of one gateway as the model documents it. */
export function describeOperations(m: DocModel, g: Gateway, location: string): GatewayDescription {
  const operations: Op[] = [];
  for (const op of g.operations) {
    const r = m.resources.find((x) => x.name === op.resource);
    if (op.action === "list" && r?.list) {
      const parent = r.parent ? r.fields.find((f) => f.refersTo === r.parent && f.name !== r.idField) : undefined;
      const inputs: Op["inputs"] = listParams(r.list).map((p) => ({
        name: p.name,
        type: xsdOf(p.schema),
        required: p.role === "sort",
        role: p.role,
        description: p.description,
        max: maxOf(p.schema),
        fixed: p.value,
      }));
      if (parent) inputs.unshift({ name: parent.name, type: "xsd:string", required: true, role: "parent", description: `Id of the ${r.parent}.` });
      operations.push({
        name: op.name,
        action: op.action,
        description: op.description,
        inputs,
        output: { container: m.envelope.items, item: r.name, fields: recordOutput(m, r), extra: pagedExtra(m, r.list.paging) },
      });
    } else if (op.action === "get" && r) {
      operations.push({ name: op.name, action: op.action, description: op.description, inputs: [idInput(r)], output: { item: r.name, fields: recordOutput(m, r), extra: [] } });
    } else if (op.action === "feed") {
      const since = m.resources.flatMap((x) => x.list?.params ?? []).find((p) => p.role === "since");
      const feed = deleteStyle(m.deletes).feed!;
      const entry = feed.entrySchema(m.deletes, { ...timeFormat(m.timeFormat).docs.schema });
      const inputs: Op["inputs"] = listParams({ paging: m.paging, params: since && feed.incremental(m.deletes) ? [since] : [], path: g.path, incremental: false }).map((p) => ({
        name: p.name,
        type: xsdOf(p.schema),
        required: false,
        role: p.role,
        description: p.description,
        max: maxOf(p.schema),
      }));
      const fields = Object.entries(entry.properties).map(([name, s]) => ({ name, type: xsdOf(s as Record<string, unknown>), nullable: false }));
      operations.push({ name: op.name, action: op.action, description: op.description, inputs, output: { container: m.envelope.items, item: "deletion", fields, extra: pagedExtra(m, m.paging) } });
    } else if (op.action === "write") {
      const w = m.writes.find((x) => x.name === op.write)!;
      const target = m.resources.find((x) => x.name === w.entity)!;
      const inputs: Op["inputs"] = w.inputs.map((i) => ({
        name: i.name,
        type: xsdOf({ type: i.type }),
        required: i.required,
        description: i.description + (i.oneOf ? ` One of ${i.oneOf.join(", ")}.` : ""),
      }));
      if (w.op === "update") inputs.unshift(idInput(target));
      if (w.idempotency?.in === "body")
        inputs.push({
          name: w.idempotency.field,
          type: "xsd:string",
          required: false,
          role: "idempotency",
          description: `Makes retries safe: a repeat within the next ${w.idempotency.windowWrites} writes returns the first answer.`,
        });
      operations.push({ name: op.name, action: op.action, description: op.description, inputs, output: { item: target.name, fields: recordOutput(m, target), extra: [] } });
    }
  }
  return { location, operations };
}

/** The service description document of a gateway (a WSDL), when its style has one. */
export function serviceDescription(m: DocModel, g: Gateway): string | null {
  const style = gatewayStyle(g);
  return style.description ? style.description(g, describeOperations(m, g, `${m.baseUrl}${g.path}`)) : null;
}
