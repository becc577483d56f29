/**
 * The sequence API that both entries (`@rtool/core` and `@rtool/core/browser`) export: the
 * batch, its options and results, and its errors. Nothing here is Node-only.
 */
export type { MergePolicy } from "./batched-runtime";
export { RequestAbortedError, SequenceGoneError, type SequenceGoneReason } from "./errors";
export {
  type OpenSequenceOptions,
  SequenceBatch,
  type SequenceBatchOptions,
  type SequenceBatchStats,
  type SequenceId,
  type SequenceInfo,
  type SequenceMergeOptions,
  type SequenceStep,
  type SequenceStepResult,
} from "./sequence-batch";
