/** What every route shares: the model, the queue, the metrics and the limits. */
import type { CallQueue } from "./batching/call-queue";
import type { JsonBodyOptions } from "./http/json-body";
import type { ServerMetrics } from "./metrics";
import type { ModelHost, PromptFormat } from "./model-host";

export interface ServerDeps {
  host: ModelHost;
  queue: CallQueue;
  metrics: ServerMetrics;
  limits: JsonBodyOptions;
  /** Prompt format of `/v1/function_call` and `/v1/chat/completions`. */
  format: PromptFormat;
  /** `@rtool/core` version, for `/health`. */
  version: string;
}
