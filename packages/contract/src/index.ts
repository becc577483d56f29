/**
 * @rtool/contract: rtool's call contract, defined once. The wire types of rtool-server
 * (function-call request and reply, the events of a streamed call, the error body, chat
 * completions) as zod schemas, from which the server validates requests and generates its
 * OpenAPI document and every other package infers its types; the tool shapes; and the one call
 * validator. It depends on zod only, so the client and the Phaser plugin stay light (they import
 * types and the validator, which needs no zod at run time).
 *
 * @example
 * ```ts
 * import { checkCall, functionCallRequestSchema } from "@rtool/contract";
 * const request = functionCallRequestSchema.parse(body); // what the server accepts
 * const call = checkCall(tools, reply.function, reply.args); // what a game may act on
 * ```
 * @packageDocumentation
 */

export * from "./calls";
export {
  type ChatCompletion,
  type ChatCompletionsBody,
  type ChatCompletionsRequest,
  type ChatMessage,
  type ChatToolCall,
  chatCompletionSchema,
  chatCompletionsRequestSchema,
  chatMessageSchema,
  chatToolCallSchema,
  chatToolSchema,
} from "./chat-completions";
export {
  type ErrorReply,
  errorReplySchema,
  type FunctionCallReply,
  type FunctionCallRequest,
  type FunctionCallRequestBody,
  type FunctionCallStreamEvents,
  functionCallReplySchema,
  functionCallRequestSchema,
  type HeadEventData,
  type HealthReply,
  headEventSchema,
  healthReplySchema,
  type Issue,
  issueSchema,
  type Message,
  messageSchema,
  type ServerTimings,
  serverTimingsSchema,
  toolSchema,
} from "./function-call";
export { type EngineTimings, replyTimings } from "./timings";
