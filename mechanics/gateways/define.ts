/**
 * @module gateways/define
 * The shape of an RPC gateway style: one endpoint that takes every call as
 * an XML document naming an operation, runs it as the list, read, feed or
 * write the declaration maps it to, and answers in the style's envelope.
 * One module per style; `gateways/index.ts` lists them.
 */
import { z } from "zod";
import type { Reply } from "../kit/reply.ts";
import type { HeaderReader } from "../kit/request-headers.ts";

/** One operation a gateway offers, mapped onto what the rest of the declaration defines. */
export const GatewayOperation = z.object({
  /** Operation name on the wire (`ListEmployees`). */
  name: z.string().regex(/^[A-Z][A-Za-z0-9]*$/),
  /** What the operation runs: a resource's list or single read, the deletion feed, or a declared write. */
  action: z.enum(["list", "get", "feed", "write"]),
  /** The resource listed or read (`list`, `get`). */
  resource: z.string().optional(),
  /** The declared write run (`write`), by name. */
  write: z.string().optional(),
  /** What the operation does, in the vendor's words. */
  description: z.string().min(1),
});
export type GatewayOperation = z.infer<typeof GatewayOperation>;

/** Fields every gateway declares. */
export const gatewayCommon = {
  /** The one endpoint every call is POSTed to. */
  path: z.string().startsWith("/"),
  /** Service name (WSDL service, docs heading). */
  service: z.string().regex(/^[A-Z][A-Za-z0-9]*$/),
  /** XML namespace of the operations' elements. */
  namespace: z.string().min(1),
  operations: z.array(GatewayOperation).min(1),
};

/** A call as a style reads it from the request: the operation and its parameters as text. */
export interface GatewayCall {
  operation: string;
  /** Child elements of the operation element, by local name. */
  params: Record<string, string>;
}

/** A request the style refuses before any operation runs. */
export interface CallRefusal {
  status: number;
  code: string;
  message: string;
}

export type ParsedCall = { ok: true; call: GatewayCall } | { ok: false; refusal: CallRefusal };

/** The request parts a style reads. */
export interface GatewayRequest {
  headers: HeaderReader;
  rawBody: string;
}

/** A reply's meaning, read from the engine's JSON answer, for a style to put in its envelope. */
export type ReplyMeaning = { ok: true; status: number; body: Record<string, unknown> } | { ok: false; status: number; code: string; message: string; detail: Record<string, unknown> };

/** How a style names repeated elements: the element for each item of an array under `key`. */
export type ItemTag = (key: string) => string;

export interface GatewayStyle<S extends z.ZodObject = z.ZodObject, G = z.infer<S>> {
  schema: S;
  /** Reads the operation and its parameters, or refuses the request (wrong media type, malformed XML, ...). */
  parse(g: G, req: GatewayRequest): ParsedCall;
  /**
   * Puts an answer in the style's envelope. `operation` is null when the
   * request was refused before one could be read.
   */
  render(g: G, operation: string | null, meaning: ReplyMeaning, itemTag: ItemTag, headers: Record<string, string>): Reply;
  /** A machine-readable service description (a WSDL) served at `GET <path>?wsdl`, when the style has one. */
  description?(g: G, d: GatewayDescription): string;
  docs: {
    /** What the style is called, in a few words (`SOAP 1.1 + WSDL`). */
    label: string;
    /** Markdown lines for the gateway page: the envelope, an example call, how failures look. */
    overview(g: G, baseUrl: string): string[];
    /** An example request body of an operation with these parameters. */
    exampleRequest(g: G, operation: string, params: Record<string, string>): string;
    /** Headers a call must carry besides the credentials (`SOAPAction`), for examples. */
    callHeaders(g: G, operation: string): Record<string, string>;
    /** How a failure is answered, one sentence. */
    failures: string;
  };
}

/** What a service description needs to know about each operation. */
export interface GatewayDescription {
  /** Endpoint URL as the client reaches it. */
  location: string;
  operations: {
    name: string;
    action: GatewayOperation["action"];
    description: string;
    /** Request elements, in order, with an XML Schema type and the role a client gives them. */
    inputs: { name: string; type: string; required: boolean; role?: string; description: string; max?: number; fixed?: string }[];
    /** The element holding the answer's records, and each record's fields. */
    output: { container?: string; item: string; fields: { name: string; type: string; nullable: boolean }[]; extra: { name: string; type: string }[] };
  }[];
}

export function defineGateway<S extends z.ZodObject>(style: GatewayStyle<S>): GatewayStyle<S> {
  return style;
}

export function styleOf(s: GatewayStyle): string {
  return (s.schema.shape.style as z.ZodLiteral<string>).value;
}
