/**
 * `@rtool/contract/calls`: the part of the contract that needs no zod at run time (the call
 * validator, the tool shapes and the wire's constants), for the client and the Phaser plugin,
 * which must stay light in a browser bundle.
 * @packageDocumentation
 */
export {
  type ArgsCheckResult,
  type CallCheckCode,
  type CallCheckIssue,
  type CheckableTool,
  type CheckedCall,
  type CheckedParameter,
  checkArgs,
  checkCall,
  parametersOf,
} from "./check-call";
export {
  API_ERROR_CODES,
  type ApiErrorCode,
  MESSAGE_ROLES,
  NULL_HEAD,
  REQUEST_ERROR_CODES,
  REQUEST_LIMITS,
} from "./constants";
export { type EngineTimings, replyTimings } from "./timings";
export {
  type FunctionDefinition,
  type FunctionTool,
  MAX_TOOL_PARAMETERS,
  type ParameterSchema,
  type ParametersSchema,
  type ParameterType,
  PROMPT_FORMATS,
  type PromptFormat,
} from "./tools";
