/**
 * ONNX Runtime session creation with rtool's provider policy: CPU tuned for latency, CUDA when its
 * libraries are installed (a typed error otherwise), and "auto" falling back from CUDA to CPU.
 */
import * as ort from "onnxruntime-node";
import { physicalCoreCount } from "./cpu-cores";
import { missingCudaLibraries } from "./cuda-libraries";
import { ProviderUnavailableError, SessionCreateError, UnknownProviderError } from "./errors";

/** Execution providers a caller may ask for. */
export type ProviderRequest = "cpu" | "cuda" | "auto";

/** Options of {@link createSession}. */
export interface SessionOptions {
  /** Default "cpu". */
  provider?: ProviderRequest;
  /** Intra-op threads; default: the physical cores available to this process. */
  threads?: number;
  /**
   * Let idle intra-op threads spin instead of sleeping; default false. Spinning saves a little
   * latency on an otherwise idle machine but costs a lot when other processes share the cores
   * (measured on 2 shared cores: median tiny-model step 2.4-14 ms spinning, ~1.5 ms not).
   */
  spinning?: boolean;
  /** Called with a message when "auto" falls back to the CPU; default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** A created session and the provider it actually runs on. */
export interface CreatedSession {
  session: ort.InferenceSession;
  provider: "cpu" | "cuda";
}

function cpuOptions(threads?: number, spinning = false): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: ["cpu"],
    intraOpNumThreads: threads ?? physicalCoreCount(),
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
    enableCpuMemArena: true,
    enableMemPattern: true,
    logSeverityLevel: 3,
    extra: { session: { intra_op: { allow_spinning: spinning ? "1" : "0" } } },
  };
}

function describe(model: Uint8Array | string): string {
  return typeof model === "string" ? model : `an in-memory model of ${model.byteLength} bytes`;
}

async function open(model: Uint8Array | string, options: ort.InferenceSession.SessionOptions) {
  return typeof model === "string"
    ? ort.InferenceSession.create(model, options)
    : ort.InferenceSession.create(model, options);
}

/** Whether this onnxruntime-node build knows the CUDA provider at all (its libraries may still be absent). */
function cudaIsKnown(): boolean {
  return ort.listSupportedBackends().some((b) => b.name === "cuda");
}

async function createCuda(model: Uint8Array | string, options: SessionOptions): Promise<CreatedSession> {
  const libraries = missingCudaLibraries();
  if (libraries && libraries.missing.length > 0) {
    throw new ProviderUnavailableError(
      "cuda",
      `${libraries.missing.join(", ")} not found in ${libraries.dir}`,
    );
  }
  const sessionOptions = { ...cpuOptions(options.threads, options.spinning), executionProviders: ["cuda"] };
  try {
    return { session: await open(model, sessionOptions), provider: "cuda" };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // A provider library that cannot be loaded is a provider problem, not a model problem.
    if (!cudaIsKnown() || /cuda|provider|libonnxruntime_providers|cudnn|cublas/i.test(reason)) {
      throw new ProviderUnavailableError("cuda", reason.split("\n")[0]);
    }
    throw new SessionCreateError(describe(model), reason);
  }
}

/** Throws {@link UnknownProviderError} unless `provider` is one rtool knows (check before slow work). */
export function checkProviderRequest(provider: unknown): asserts provider is ProviderRequest | undefined {
  if (provider !== undefined && provider !== "cpu" && provider !== "cuda" && provider !== "auto") {
    throw new UnknownProviderError(String(provider));
  }
}

/**
 * Creates an ONNX Runtime session for a model given as bytes or as a file path (a path is needed
 * when the model keeps its weights in an external data file).
 *
 * @example
 * ```ts
 * const { session, provider } = await createSession("model.onnx", { provider: "auto" });
 * ```
 */
export async function createSession(
  model: Uint8Array | string,
  options: SessionOptions = {},
): Promise<CreatedSession> {
  const provider = options.provider ?? "cpu";
  if (provider !== "cpu" && provider !== "cuda" && provider !== "auto")
    throw new UnknownProviderError(String(provider));
  if (provider === "cuda") return createCuda(model, options);
  if (provider === "auto") {
    try {
      return await createCuda(model, options);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      (options.onWarning ?? console.warn)(`rtool: CUDA unavailable, running on the CPU (${error.reason})`);
    }
  }
  try {
    return { session: await open(model, cpuOptions(options.threads, options.spinning)), provider: "cpu" };
  } catch (error) {
    throw new SessionCreateError(describe(model), error instanceof Error ? error.message : String(error));
  }
}
