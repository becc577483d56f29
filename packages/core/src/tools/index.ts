/**
 * Tools: declare once with `defineTool` (zod 4 or JSON Schema parameters, typed handler), hold
 * them in a `ToolRegistry` (prompt order, the request checks), and run calls with a
 * `ToolExecutor` (deadline, AbortSignal, typed results, optional worker isolation, early
 * dispatch from streamed heads, audit hook).
 */
// The wire's tool type, from the call contract (a declared tool is one).
export type { FunctionTool } from "@rtool/contract";
export {
  type DeclaredTool,
  defineTool,
  isToolDefinition,
  type JsonToolOptions,
  TOOL_DEFINITION,
  type ToolContext,
  type ToolDefinition,
  type ToolHandler,
  type ZodToolOptions,
} from "./define-tool";
export {
  dispatchEarly,
  type EarlyDispatchOptions,
  type EarlyDispatchResult,
  type StreamEvent,
} from "./early-dispatch";
export type {
  ErrorInfo,
  ExecutionBase,
  ExecutionFailure,
  ExecutionFailureStatus,
  ExecutionOk,
  ExecutionResult,
  ExecutionTimings,
} from "./execution-result";
export {
  type AuditEntry,
  type CallToExecute,
  type ExecuteOptions,
  type IsolationOptions,
  ToolExecutor,
  type ToolExecutorOptions,
} from "./executor";
export {
  type ArgsCheck,
  checkJsonArgs,
  type Flatten,
  type JsonObjectSchema,
  type JsonParameterSchema,
  type JsonSchemaArgs,
  type JsonValueOf,
  type RequiredOf,
  type ScalarOf,
} from "./json-schema-args";
export {
  type AnyTool,
  isToolRegistry,
  type RegistryPromptRequest,
  TOOL_REGISTRY,
  ToolRegistry,
} from "./registry";
export { isZodSchema, type ZodErrorLike, type ZodSchemaLike, zodToParameters } from "./zod-parameters";
