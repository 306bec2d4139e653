import { describe, expect, it } from "vitest";
import { DeclarationError, parseVendor } from "../../declarations/schema/define.ts";
import type { VendorInput } from "../../declarations/schema/vendor.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import hirewire from "../../declarations/vendors/hirewire.ts";
import { buildState } from "../../workers/engine/data/generate.ts";

/** A valid declaration to break one piece at a time. */
function base(): VendorInput {
  return structuredClone(hirewire) as unknown as VendorInput;
}

function errorOf(input: unknown): string {
  try {
    parseVendor(input, "vendor test");
  } catch (err) {
    expect(err).toBeInstanceOf(DeclarationError);
    return (err as Error).message;
  }
  throw new Error("declaration was accepted");
}

describe("vendor declarations", () => {
  it("ships the declared vendors", () => {
    expect(Object.keys(VENDORS).sort()).toEqual([
      "bullpen",
      "crewcall",
      "globalhire",
      "hirewire",
      "interviewly",
      "onboardly",
      "paygrade",
      "placemint",
      "recruitos",
      "rosterly",
      "sourcewell",
      "staffline",
      "talentforge",
      "talentloop",
      "vettly",
    ]);
  });

  it("accepts the unmodified base", () => {
    expect(parseVendor(base()).id).toBe("hirewire");
  });

  it.each<[string, (v: any) => void, RegExp]>([
    ["a ref to an unknown entity", (v) => (v.resources[1].fields[1].gen = { gen: "ref", entity: "ghost" }), /resources\[1\]\.fields\[1\]\.gen: unknown entity "ghost"/],
    ["a duplicate field", (v) => v.resources[0].fields.push(v.resources[0].fields[1]), /duplicate field "name"/],
    ["checkpoints out of order", (v) => (v.timeline[1].checkpoint = 1), /timeline\[1\]\.checkpoint: checkpoints must be strictly increasing/],
    ["two routes on one path", (v) => (v.resources[1].list = "/v1/candidates"), /route GET \/v1\/candidates is already used/],
    ["an unknown credential", (v) => (v.auth.present[0].value = { credential: "nope" }), /unknown credential "nope"/],
    ["a write input the entity lacks", (v) => v.writes[0].inputs.push({ name: "shoe_size", type: "integer", description: "x" }), /has no field "shoe_size"/],
    ["a bad id", (v) => (v.id = "Hire Wire"), /at id:/],
    ["an incremental resource without an updatedAt field", (v) => (v.resources[0].fields = v.resources[0].fields.filter((f: any) => f.name !== "updated_at")), /incremental field "updated_at"/],
    ["a negative mutation count", (v) => (v.timeline[0].mutations[0].count = -1), /timeline\[0\]\.mutations\[0\]\.count/],
    [
      "a regeneration numbered into the issued ids",
      (v) => (v.timeline[0].mutations = [{ op: "regenerate", entity: "candidate", count: 10, restartAt: 995 }]),
      /timeline\[0\]\.mutations\[0\]\.restartAt: ids 995\.\.1004 would collide with the "candidate" ids issued from 1001 up/,
    ],
    [
      "a regeneration overlapping an earlier one",
      (v) => {
        v.timeline[0].mutations = [{ op: "regenerate", entity: "candidate", count: 10, restartAt: 505 }];
        v.timeline[1].mutations = [{ op: "regenerate", entity: "candidate", count: 10, restartAt: 500 }];
      },
      /timeline\[1\]\.mutations\[0\]\.restartAt: ids 500\.\.509 would collide with the ids 505\.\.514 of an earlier regeneration/,
    ],
    [
      "a regeneration of ids that are not numbered",
      (v) => (v.timeline[0].mutations = [{ op: "regenerate", entity: "audit_event", count: 3, restartAt: 1 }]),
      /"audit_event" ids are not numbered \(ulid\)/,
    ],
  ])("rejects %s, naming the path", (_name, breakIt, message) => {
    const v = base();
    breakIt(v);
    expect(errorOf(v)).toMatch(message);
  });
});

describe("export faults", () => {
  it("rejects an export-not-ready fault naming an export the vendor does not declare, naming the path", () => {
    const placemint = structuredClone(VENDORS.placemint) as any;
    const at = placemint.faults.findIndex((f: any) => f.kind === "export-not-ready");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(() => parseVendor(placemint)).not.toThrow();
    placemint.faults[at].export = "fee_statement";
    expect(errorOf(placemint)).toMatch(new RegExp(`faults\\[${at}\\]\\.export: no export "fee_statement" is declared`));
  });
});

describe("stage mutations since a checkpoint", () => {
  it("rejects a reopen-stage or advance-stage whose since is not before its own checkpoint, and one on an entity without stages", () => {
    const placemint = structuredClone(VENDORS.placemint) as any;
    const at = placemint.timeline.findIndex((cp: any) => cp.mutations.some((m: any) => m.op === "reopen-stage"));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(() => parseVendor(placemint)).not.toThrow();
    placemint.timeline[at].mutations[0].since = placemint.timeline[at].checkpoint;
    expect(errorOf(placemint)).toMatch(new RegExp(`timeline\\[${at}\\]\\.mutations\\[0\\]\\.since: since must name a checkpoint before`));
    placemint.timeline[at].mutations[0] = { op: "reopen-stage", entity: "note", count: 1 };
    expect(errorOf(placemint)).toMatch(/"note" declares no stages/);
  });
});

describe("webhook test deliveries", () => {
  it("every vendor with webhooks declares its test-delivery route", () => {
    const missing = Object.values(VENDORS).filter((v) => v.webhooks && !v.webhooks.testDelivery);
    expect(missing.map((v) => v.id)).toEqual([]);
  });

  it("rejects a test-delivery path that another route uses, naming the path", () => {
    const talentloop = structuredClone(VENDORS.talentloop) as any;
    talentloop.webhooks.testDelivery.path = talentloop.webhooks.subscriptionPath;
    expect(errorOf(talentloop)).toMatch(/webhooks\.testDelivery\.path: route POST \/webhooks\/subscriptions is already used by webhook subscriptions/);
  });
});

describe("seeded state", () => {
  it("is a pure function of (declaration, seed, checkpoint)", () => {
    for (const v of Object.values(VENDORS)) {
      expect(buildState(v, 5, 2)).toEqual(buildState(v, 5, 2));
      expect(buildState(v, 5, 2)).not.toEqual(buildState(v, 6, 2));
      expect(buildState(v, 5, 1)).not.toEqual(buildState(v, 5, 2));
    }
  });

  it("regenerates a tenant below the old ids: old records deleted, new ones numbered from restartAt", () => {
    const v = base() as any;
    v.timeline[0].mutations = [{ op: "regenerate", entity: "candidate", count: 5, restartAt: 101 }];
    const before = buildState(parseVendor(v), 3, 0).filter((r) => r.entity === "candidate");
    const after = buildState(parseVendor(v), 3, 1).filter((r) => r.entity === "candidate");
    expect(after.filter((r) => r.deletedMs === null).map((r) => r.id)).toEqual(["101", "102", "103", "104", "105"]);
    expect(after.filter((r) => before.some((b) => b.id === r.id && b.deletedMs === null)).every((r) => r.deletedMs !== null)).toBe(true);
    expect(buildState(parseVendor(v), 3, 1)).toEqual(buildState(parseVendor(v), 3, 1));
  });

  it("keeps a field's values when another field is added", () => {
    const v = base() as any;
    const before = buildState(parseVendor(v), 3, 0).map((r) => r.data.email);
    v.resources[0].fields.splice(2, 0, { name: "nickname", type: "string", description: "x", gen: { gen: "firstName" } });
    const after = buildState(parseVendor(v), 3, 0).map((r) => r.data.email);
    expect(after).toEqual(before);
  });

  it("makes subresources point at live parents and refs at existing records", () => {
    let parents = 0;
    let refs = 0;
    for (const v of Object.values(VENDORS)) {
      const state = buildState(v, 9, 0);
      const ids = new Set(state.map((r) => `${r.entity}/${r.id}`));
      const pointers = state.flatMap((r) => {
        const resource = v.resources.find((x) => x.name === r.entity)!;
        const parent = resource.parent ? [{ kind: "parent", to: `${resource.parent}/${r.parent}` }] : [];
        const fields = resource.fields.flatMap((f) => (f.gen.gen === "ref" ? [{ kind: "ref", to: `${f.gen.entity}/${r.data[f.name]}` }] : []));
        return [...parent, ...fields];
      });
      expect(
        pointers.filter((p) => !ids.has(p.to)),
        v.id,
      ).toEqual([]);
      parents += pointers.filter((p) => p.kind === "parent").length;
      refs += pointers.filter((p) => p.kind === "ref").length;
    }
    // Both kinds of pointer were checked at all.
    expect(parents).toBeGreaterThan(0);
    expect(refs).toBeGreaterThan(0);
  });
});

describe("people across vendors", () => {
  it("makes the n-th candidate the same person in every vendor of a seed", () => {
    const people = (id: string) =>
      buildState(VENDORS[id], 4, 0)
        .filter((r) => r.entity === "candidate")
        .slice(0, 20)
        .map((r) => r.data.email);
    expect(people("hirewire")).toEqual(people("talentforge"));
    expect(people("staffline")).toEqual(people("talentforge"));
    const other = buildState(VENDORS.hirewire, 5, 0)
      .filter((r) => r.entity === "candidate")
      .slice(0, 20)
      .map((r) => r.data.email);
    expect(other).not.toEqual(people("hirewire"));
  });
});
