/**
 * @module gateway-description
 * `GET <gateway path>?wsdl`: the live service's own description, generated
 * from the declaration as it really behaves (the truthful model).
 */
import type { Gateway } from "../../../declarations/schema/gateways.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { text, vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { truthfulModel } from "../../docs/build-model.ts";
import { serviceDescription } from "../../docs/gateway-description.ts";
import { RELEASE } from "../../docs/release.ts";
import type { VendorRequest } from "../http/vendor-request.ts";

export function describeGateway(vendor: Vendor, g: Gateway, req: VendorRequest, baseUrl: string): Reply {
  if (![...req.query.keys()].some((k) => k.toLowerCase() === "wsdl")) return vendorError(vendor, 400, "wsdl_only", `GET ${g.path} serves the service description: add ?wsdl`);
  const doc = serviceDescription(truthfulModel(vendor, { baseUrl, release: RELEASE, examples: [] }), g)!;
  return text(200, doc, "text/xml; charset=utf-8");
}
