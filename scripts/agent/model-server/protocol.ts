/**
 * @module protocol
 * One wire protocol the scripted model server speaks. The server is
 * stateless per request: an adapter works out from the conversation it is
 * sent how many turns have been played (`turnOf`), and answers with the next
 * step rendered as that protocol's response (streamed when asked).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Script, ScriptStep } from "../script.ts";

export interface ProtocolContext {
  script: Script;
  /** The parsed JSON request body. */
  body: any;
  req: IncomingMessage;
  res: ServerResponse;
}

export interface ModelProtocol {
  /** `anthropic-messages`, `openai-responses`, `openai-chat`. */
  id: string;
  /** Whether this adapter answers `METHOD path` (e.g. `POST /v1/messages`). */
  matches(method: string, path: string): boolean;
  /** Index of the step to play now: the number of assistant turns already in the conversation. */
  turnOf(body: any): number;
  /**
   * Writes the response for `step` (a tool call, text, or the final answer).
   * The names of the tools the client offered are in the request body; an
   * adapter maps lane-neutral steps onto them.
   */
  respond(step: ScriptStep, ctx: ProtocolContext): Promise<void> | void;
}
