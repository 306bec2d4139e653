/**
 * Every mechanic the issue lists is used by enough vendor declarations: which
 * vendors use one is computed from the validated declarations, never from a
 * list of vendor ids, and kind names come from the mechanics' own modules
 * and registries. A failure names the mechanic and the vendors that use it.
 */
import { describe, expect, it } from "vitest";
import { GATEWAY_STYLES } from "../../mechanics/gateways/index.ts";
import { type GatewayStyle, styleOf as styleOfGateway } from "../../mechanics/gateways/define.ts";
import { Mutation } from "../../declarations/schema/timeline.ts";
import { Resource, type Vendor } from "../../declarations/schema/vendor.ts";
import { Webhooks } from "../../declarations/schema/webhooks.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { cookieScheme } from "../../mechanics/auth/cookie.ts";
import { kindOf as authKindOf } from "../../mechanics/auth/define.ts";
import { loginMint } from "../../mechanics/auth/login.ts";
import { kindOf as faultKindOf, type FaultKind } from "../../mechanics/faults/define.ts";
import { multiStatusPhantom } from "../../mechanics/faults/multi-status-phantom.ts";
import { payloadTooLarge } from "../../mechanics/faults/payload-too-large.ts";
import { staleRead } from "../../mechanics/faults/stale-read.ts";
import { type LieKind, lieKindOf } from "../../mechanics/lies/define.ts";
import { omittedSort } from "../../mechanics/lies/omitted-sort.ts";
import { timeFormat as timeFormatLie } from "../../mechanics/lies/time-format.ts";
import { cursorPaging } from "../../mechanics/paging/cursor.ts";
import { type PagingStyle, styleOf } from "../../mechanics/paging/define.ts";
import { type SignatureScheme, schemeOf } from "../../mechanics/signatures/define.ts";
import { SIGNATURE_SCHEMES } from "../../mechanics/signatures/index.ts";
import { epochMs } from "../../mechanics/time-formats/epoch-ms.ts";
import { epochS } from "../../mechanics/time-formats/epoch-s.ts";
import { isoOffset } from "../../mechanics/time-formats/iso-offset.ts";

const vendors = Object.values(VENDORS);

/** One mechanic, the least number of vendors that must use it, and how a declaration shows it uses it. */
interface Coverage {
  mechanic: string;
  min: number;
  uses: (v: Vendor) => boolean;
}

/** Ids of the vendors whose declarations use a mechanic. */
function usersOf(uses: (v: Vendor) => boolean): string[] {
  return vendors.filter(uses).map((v) => v.id);
}

/** Asserts a mechanic's use, naming it and its users in the failure. */
function expectCovered({ mechanic, min, uses }: Coverage): void {
  const users = usersOf(uses);
  expect(users.length, `${mechanic}: used by ${users.length} vendor(s) (${users.join(", ") || "none"}); the issue asks for at least ${min}`).toBeGreaterThanOrEqual(min);
}

const fault = (k: unknown) => faultKindOf(k as FaultKind);
const lie = (k: unknown) => lieKindOf(k as LieKind);
const pagingStyle = (s: unknown) => styleOf(s as PagingStyle);

/** Every paging object of a vendor: its default and the per-resource overrides of its lists. */
function pagings(v: Vendor): (Vendor["paging"] & Record<string, unknown>)[] {
  return [v.paging, ...v.resources.filter((r) => r.list && r.paging).map((r) => r.paging!)] as never;
}

const hasLie = (v: Vendor, kind: string) => v.lies.some((l) => l.kind === kind);
const writeNamed = (v: Vendor, name: string) => v.writes.find((w) => w.name === name);
const BULK = "bulk-create";

/** The epoch time formats, whose unit a document can get wrong (seconds told as milliseconds or the reverse). */
const EPOCH_UNITS = new Set<string>([epochS.name, epochMs.name]);

const READS: Coverage[] = [
  {
    mechanic: "paging that breaks unless a sort parameter is given (sortRequired)",
    min: 2,
    uses: (v) => pagings(v).some((p) => p.sortRequired !== undefined),
  },
  {
    mechanic: `stale docs that leave out the sort a list needs (${lie(omittedSort)} lie)`,
    min: 2,
    uses: (v) => hasLie(v, lie(omittedSort)),
  },
  {
    mechanic: "single-use refresh tokens with an absolute expiry",
    min: 2,
    uses: (v) => v.auth.mints.some((m) => "refresh" in m && m.refresh?.use === "single-use" && m.refresh.expiry === "absolute"),
  },
  {
    mechanic: `${pagingStyle(cursorPaging)} lifetimes counted in requests (ttlRequests)`,
    min: 2,
    uses: (v) => pagings(v).some((p) => p.style === pagingStyle(cursorPaging) && typeof p.ttlRequests === "number"),
  },
  {
    mechanic: `stale cached single reads a client must revalidate (${fault(staleRead)} fault on a resource read by id, ETag/If-None-Match)`,
    min: 2,
    uses: (v) => v.faults.some((f) => f.kind === fault(staleRead) && v.resources.some((r) => r.name === (f as { resource?: string }).resource && r.get)),
  },
];

const WRITES: Coverage[] = [
  {
    mechanic: `413 under a bulk size cap below the documented maximum (${fault(payloadTooLarge)} fault on a bulk create)`,
    min: 2,
    uses: (v) =>
      v.faults.some((f) => {
        if (f.kind !== fault(payloadTooLarge)) return false;
        const { write, maxItems } = f as unknown as { write: string; maxItems: number };
        const w = writeNamed(v, write);
        return w?.op === BULK && maxItems < w.maxItems;
      }),
  },
  {
    mechanic: `207 multi-status where a reported success never lands (${fault(multiStatusPhantom)} fault on a bulk create)`,
    min: 2,
    uses: (v) => v.faults.some((f) => f.kind === fault(multiStatusPhantom) && writeNamed(v, (f as unknown as { write: string }).write)?.op === BULK),
  },
];

const TIMES: Coverage[] = [
  { mechanic: `${epochS.name} timestamps`, min: 1, uses: (v) => v.clock.format === epochS.name },
  { mechanic: `${epochMs.name} timestamps`, min: 1, uses: (v) => v.clock.format === epochMs.name },
  { mechanic: `per-record UTC offsets (${isoOffset.name})`, min: 2, uses: (v) => v.clock.format === isoOffset.name },
  {
    mechanic: `docs that give epoch seconds as milliseconds or the reverse (${lie(timeFormatLie)} lie between ${[...EPOCH_UNITS].join(" and ")})`,
    min: 2,
    uses: (v) => EPOCH_UNITS.has(v.clock.format) && v.lies.some((l) => l.kind === lie(timeFormatLie) && EPOCH_UNITS.has((l as { says: string }).says)),
  },
];

/** The id formats the resource schema offers, from the schema itself. */
const ID_FORMATS = (Resource.shape.id.options as { shape: { format: { value: string } } }[]).map((o) => o.shape.format.value);

/** The `op` of the tenant-regeneration mutation, from the mutation schema (the one with a `restartAt`). */
const REGENERATE = (Mutation.options as { shape: Record<string, { value?: string }> }[]).find((o) => "restartAt" in o.shape)!.shape.op.value!;

const IDS: Coverage[] = [
  ...ID_FORMATS.map((format) => ({ mechanic: `${format} ids`, min: 1, uses: (v: Vendor) => v.resources.some((r) => r.id.format === format) })),
  {
    mechanic: `a tenant regeneration that makes ids non-monotonic (${REGENERATE} mutation)`,
    min: 2,
    uses: (v) => v.timeline.some((cp) => cp.mutations.some((m) => m.op === REGENERATE)),
  },
];

/** A login that hands out a CSRF token and a session lifetime, and a cookie requirement on its session that demands the token on writes. */
function cookieSessionWithCsrf(v: Vendor): boolean {
  const logins = v.auth.mints.filter((m) => m.kind === authKindOf(loginMint as never)) as unknown as { issues: string; ttlS: number; csrfField?: string }[];
  const cookies = v.auth.present.filter((p) => p.kind === authKindOf(cookieScheme as never)) as unknown as { value: { token: string }; csrf?: { header: string } }[];
  return cookies.some((c) => c.csrf && logins.some((l) => l.issues === c.value.token && l.csrfField && l.ttlS > 0));
}

const AUTH: Coverage[] = [{ mechanic: "cookie-session login with a declared session lifetime and a CSRF token on writes", min: 2, uses: cookieSessionWithCsrf }];

const PAYLOADS = Webhooks.shape.payload.options as readonly string[];

const WEBHOOKS: Coverage[] = [
  { mechanic: "webhooks", min: 6, uses: (v) => v.webhooks !== undefined },
  ...SIGNATURE_SCHEMES.map((s) => schemeOf(s as unknown as SignatureScheme)).map((scheme) => ({
    mechanic: `webhooks signed with the ${scheme} scheme`,
    min: 1,
    uses: (v: Vendor) => v.webhooks?.signature.scheme === scheme,
  })),
  ...PAYLOADS.map((payload) => ({ mechanic: `${payload} webhook payloads`, min: 1, uses: (v: Vendor) => v.webhooks?.payload === payload })),
  { mechanic: "the webhook ack-body protocol with a dead-letter queue", min: 2, uses: (v) => v.webhooks?.ack !== undefined },
  {
    mechanic: "webhooks for a strict subset of the vendor's resources",
    min: 1,
    uses: (v) => !!v.webhooks && v.webhooks.entities.length < v.resources.length && v.webhooks.entities.every((e) => v.resources.some((r) => r.name === e)),
  },
];

/** Each gateway style (SOAP 1.1 with a WSDL, XML over POST with errors in a 200), from the registry. */
const LEGACY: Coverage[] = [
  ...GATEWAY_STYLES.map((s) => styleOfGateway(s as unknown as GatewayStyle)).map((style) => ({
    mechanic: `an XML gateway in the ${style} style`,
    min: 2,
    uses: (v: Vendor) => v.gateways.some((g) => g.style === style),
  })),
  { mechanic: "CSV export jobs (requested, polled, downloaded)", min: 2, uses: (v: Vendor) => v.exports !== undefined },
  { mechanic: "a CSV export with a BOM", min: 1, uses: (v: Vendor) => v.exports?.bom === true },
  { mechanic: "a versioned list whose old version truncates silently", min: 1, uses: (v: Vendor) => v.resources.some((r) => r.legacyList?.truncateAt) },
  {
    mechanic: "a current version broken for one resource (records skipped between pages) beside a complete older one",
    min: 1,
    uses: (v: Vendor) => v.resources.some((r) => r.skipsAtPageBoundary && r.legacyList && !r.legacyList.truncateAt),
  },
];

describe("every mechanic the issue lists is used by enough vendors", () => {
  describe.each([
    ["reads and auth tokens", READS],
    ["bulk writes", WRITES],
    ["time formats", TIMES],
    ["ids", IDS],
    ["login sessions", AUTH],
    ["webhooks", WEBHOOKS],
    ["legacy surfaces", LEGACY],
  ] as const)("%s", (_family, coverage) => {
    it.each(coverage.map((c) => [c.mechanic, c] as const))("%s", (_name, c) => expectCovered(c));
  });

  it("derives the names it checks from the schemas and registries", () => {
    expect(ID_FORMATS.length).toBeGreaterThanOrEqual(3);
    expect(SIGNATURE_SCHEMES.length).toBeGreaterThanOrEqual(4);
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(2);
    expect(REGENERATE).toMatch(/^[a-z-]+$/);
  });

  it("computes users from the declarations: a vendor stripped of a mechanic no longer counts", () => {
    const sorted = usersOf(READS[0].uses);
    const stripped = (v: Vendor): boolean => READS[0].uses({ ...v, paging: { ...v.paging, sortRequired: undefined }, resources: v.resources.map((r) => ({ ...r, paging: undefined })) } as Vendor);
    expect(sorted.length).toBeGreaterThan(0);
    expect(usersOf(stripped)).toEqual([]);
  });
});

describe("every vendor is a whole product", () => {
  it.each(Object.keys(VENDORS))("%s has three resources, a timeline of three checkpoints and two documentation lies", (id) => {
    const v = VENDORS[id];
    expect(v.resources.length, "resources").toBeGreaterThanOrEqual(3);
    expect(v.timeline.length, "checkpoints").toBeGreaterThanOrEqual(3);
    expect(v.lies.length, "lies").toBeGreaterThanOrEqual(2);
    expect(v.faults.length, "faults").toBeGreaterThan(0);
  });
});
