/**
 * @module model-server
 * The wire protocols the scripted model server speaks: the only list.
 */
import type { ModelProtocol } from "./protocol.ts";

export const PROTOCOLS: ModelProtocol[] = [];
