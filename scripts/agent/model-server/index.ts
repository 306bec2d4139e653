/**
 * @module model-server
 * The wire protocols the scripted model server speaks: the only list.
 */
import { anthropicMessages } from "./anthropic-messages.ts";
import { openaiChat } from "./openai-chat.ts";
import { openaiResponses } from "./openai-responses.ts";
import type { ModelProtocol } from "./protocol.ts";

export const PROTOCOLS: ModelProtocol[] = [anthropicMessages, openaiResponses, openaiChat];
