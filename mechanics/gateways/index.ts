/**
 * @module gateways
 * The registry of RPC gateway styles: the only list of them.
 */
import type { z } from "zod";
import { type GatewayStyle, styleOf } from "./define.ts";
import { soap11Gateway } from "./soap11.ts";
import { xmlPostGateway } from "./xml-post.ts";
import { unionOf } from "../kit/union.ts";

export const GATEWAY_STYLES = [soap11Gateway, xmlPostGateway] as const;

const BY_STYLE = new Map<string, GatewayStyle<z.ZodObject, unknown>>(GATEWAY_STYLES.map((s) => [styleOf(s as unknown as GatewayStyle), s as unknown as GatewayStyle<z.ZodObject, unknown>]));

/** The module of a declared gateway style. */
export function gatewayStyle(g: { style: string }): GatewayStyle<z.ZodObject, unknown> {
  const s = BY_STYLE.get(g.style);
  if (!s) throw new Error(`unknown gateway style "${g.style}"`);
  return s;
}

/** An RPC gateway taking every call as an XML document: the union of every module's schema in this registry, by `style`. */
export const Gateway = unionOf("style", GATEWAY_STYLES);
export type Gateway = z.infer<typeof Gateway>;
