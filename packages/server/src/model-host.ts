/**
 * The model behind the server and its loading state: requests that need it get 503 while it
 * loads (or after it failed to load), `/health` reports the state, shutdown disposes it.
 */
import type { Caller, CallerCacheStats } from "./caller";

export type { PromptFormat } from "./caller";
// Declared with the engine interface it is the base of; re-exported here, where it always was.
export type { LoadedModel } from "./engine/types";

import type { CompletionEngine, LoadedModel } from "./engine/types";
import { ApiError } from "./http/api-error";
import { redactPaths } from "./http/redact-paths";

/** Where a model is in its life. */
export type ModelState = "loading" | "ready" | "failed";

/**
 * Holds a model that may still be loading.
 *
 * @example
 * ```ts
 * const host = new ModelHost("rt-tiny", loadCallers()); // a promise: the server answers 503 meanwhile
 * await host.ready();
 * const result = await host.caller().call({ query: "go left", tools, format: "v2" });
 * ```
 */
export class ModelHost {
  private loaded: LoadedModel | null = null;
  private failure: Error | null = null;
  private readonly loading: Promise<void>;

  constructor(
    /** Shown in `/health` (a directory name, `rt-tiny`, ...). */
    readonly modelName: string,
    source: LoadedModel | Promise<LoadedModel>,
  ) {
    this.loading = Promise.resolve(source).then(
      (model) => {
        this.loaded = model;
      },
      (error: unknown) => {
        this.failure = error instanceof Error ? error : new Error(String(error));
      },
    );
  }

  get state(): ModelState {
    return this.loaded ? "ready" : this.failure ? "failed" : "loading";
  }

  /** The load error, when loading failed. */
  get error(): Error | null {
    return this.failure;
  }

  /** Execution provider once loaded, else null. */
  get provider(): "cpu" | "cuda" | "remote" | null {
    return this.loaded?.provider ?? null;
  }

  /** Resolves once loading has ended, successfully or not. */
  ready(): Promise<void> {
    return this.loading;
  }

  /** The model's caller (requests name their format); a 503 {@link ApiError} while the model is not ready. */
  caller(): Caller {
    if (this.loaded) return this.loaded.caller;
    if (this.failure) {
      throw new ApiError(
        503,
        "model_failed",
        null,
        `the model failed to load: ${redactPaths(this.failure.message)}`,
      );
    }
    throw new ApiError(503, "model_loading", null, "the model is still loading; retry shortly");
  }

  /** Text completions of the model; 503 as for {@link caller} while it is not ready, 404 without any. */
  completions(): CompletionEngine {
    const engine = this.loaded?.completions;
    if (engine) return engine;
    if (this.loaded) throw new ApiError(404, "not_found", null, "this model serves no text completions");
    this.caller(); // throws the 503 of a model still loading or failed
    throw new Error("unreachable: caller() throws while no model is loaded");
  }

  /** Prefix-cache counters of the caller (zeros when it keeps none), null before loading. */
  cacheStats(): CallerCacheStats | null {
    if (!this.loaded) return null;
    const stats = this.loaded.caller.cacheStats?.();
    return {
      hits: stats?.hits ?? 0,
      misses: stats?.misses ?? 0,
      evictions: stats?.evictions ?? 0,
      cachedTokens: stats?.cachedTokens ?? 0,
      bytes: stats?.bytes ?? 0,
    };
  }

  /** Forward passes and steps of the loaded model, null before loading or when it does not count them. */
  batchStats(): { passes: number; steps: number } | null {
    return this.loaded?.batchStats?.() ?? null;
  }

  /** Waits for loading to end, then releases the model. */
  async dispose(): Promise<void> {
    await this.loading;
    const model = this.loaded;
    this.loaded = null;
    await model?.dispose?.();
  }
}
