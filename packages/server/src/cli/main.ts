/**
 * `rtool-server`: parse the command line, then serve a model (listening at once, answering 503
 * until the model is loaded) or pull one. SIGINT/SIGTERM stop accepting connections, let the
 * calls in flight finish until `--shutdown-timeout` (then they get 503), and exit 0.
 */
import { VERSION } from "@rtool/core";
import { createOpenAiEngine } from "../engine/openai-engine";
import { loadCallers } from "../load-callers";
import type { LoadedModel } from "../model-host";
import { ModelSourceError, resolveModelDir } from "../model-source";
import { createServer } from "../server";
import { type PullArgs, parseCliArgs, type ServeArgs, USAGE, UsageError } from "./args";
import { downloadProgress, loadProgress } from "./progress";
import { pullModel } from "./pull";

/** A second signal sooner than this after the first is the same Ctrl-C delivered twice. */
const DUPLICATE_SIGNAL_MS = 1000;

/** Exit codes: 0 done, 1 failure at run time, 2 bad command line or model spec. */
export type ExitCode = 0 | 1 | 2;

/**
 * Runs the CLI. Resolves with the exit code once the command is over (for `serve`: once a
 * signal has stopped the server).
 *
 * @example
 * ```ts
 * process.exit(await runCli(process.argv.slice(2)));
 * ```
 */
export async function runCli(argv: readonly string[]): Promise<ExitCode> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`rtool-server: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  switch (args.command) {
    case "help":
      console.log(USAGE);
      return 0;
    case "version":
      console.log(VERSION);
      return 0;
    case "pull":
      return pull(args);
    case "serve":
      return serve(args);
  }
}

async function pull(args: PullArgs): Promise<ExitCode> {
  const progress = downloadProgress(args.repo, process.stderr);
  try {
    const result = await pullModel({
      repo: args.repo,
      dir: args.dir,
      endpoint: args.endpoint,
      revision: args.revision,
      token: process.env.HF_TOKEN,
      onPlan: (files, total) => progress.plan(total, files.length),
      onProgress: (file, _, done) => progress.update(file, done),
    });
    progress.done();
    console.log(`pulled ${args.repo} into ${result.dir}; serve it with: rtool-server --model ${result.dir}`);
    return 0;
  } catch (error) {
    // no "done" here: a network error mid-download is a failure, reported as one
    progress.fail();
    console.error(`rtool-server pull: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function serve(args: ServeArgs): Promise<ExitCode> {
  let dir = "";
  try {
    if (args.engine === "local") dir = await resolveModelDir(args.model);
  } catch (error) {
    if (!(error instanceof ModelSourceError)) throw error;
    console.error(`rtool-server: ${error.message}`);
    return 2;
  }
  const modelName = args.engine === "openai" ? (args.engineModel ?? args.engineUrl!) : args.model;
  const progress = loadProgress(modelName, process.stderr);
  const loading: Promise<LoadedModel> =
    args.engine === "openai" ? Promise.resolve(remoteEngine(args)) : loadLocal(dir, args, progress);
  const server = createServer({
    model: loading,
    modelName,
    backendName: args.name,
    format: args.format,
    hostname: args.host,
    port: args.port,
    apiKey: args.apiKey,
    corsOrigins: args.cors,
    concurrency: args.concurrency,
    maxWaiting: args.maxWaiting,
    requestTimeoutMs: args.timeoutMs,
    shutdownTimeoutMs: args.shutdownTimeoutMs,
    allowedHosts: args.allowedHosts,
  });

  let stop!: (code: ExitCode) => void;
  const stopped = new Promise<ExitCode>((resolve) => {
    stop = resolve;
  });
  let stoppingSince: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince !== null) {
      // `bunx` and a terminal both deliver one Ctrl-C: a signal right after the first is that
      // echo and must not cut the (bounded) drain short; a later one is a person insisting.
      if (performance.now() - stoppingSince < DUPLICATE_SIGNAL_MS) return;
      console.error(`rtool-server: ${signal} again, exiting now`);
      process.exit(1);
    }
    stoppingSince = performance.now();
    console.error(`rtool-server: ${signal}: finishing calls in flight`);
    server.close().then(
      () => stop(0),
      (error) => {
        console.error(`rtool-server: shutdown failed: ${String(error)}`);
        stop(1);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    const { url } = await server.listen();
    console.log(`rtool-server ${VERSION} listening on ${url} (docs: ${url}/docs)`);
  } catch (error) {
    progress.fail();
    console.error(`rtool-server: cannot listen on ${args.host}:${args.port}: ${String(error)}`);
    await server.close().catch(() => {});
    return 1;
  }
  loading.then(
    (model) => {
      progress.done(`ready on ${model.provider}`);
      console.log(`rtool-server: model ${modelName} loaded (${model.provider})`);
    },
    (error) => {
      progress.fail();
      console.error(
        `rtool-server: cannot load ${modelName}: ${error instanceof Error ? error.message : String(error)}`,
      );
      server.close().then(
        () => stop(1),
        () => stop(1),
      );
    },
  );
  const code = await stopped;
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  return code;
}

function loadLocal(dir: string, args: ServeArgs, progress: ReturnType<typeof loadProgress>) {
  return loadCallers(dir, {
    provider: args.provider,
    threads: args.threads,
    draftTokens: args.draftTokens,
    answerCacheEntries: args.answerCache,
    mergeWindowMs: args.mergeWindowMs,
    quant: args.quant,
    skipWeightCheck: args.skipWeightCheck,
    sessionWorker: args.sessionWorker,
    lanes: args.concurrency,
    onProgress: (p) => progress.update(p),
    onWarning: (message) => console.error(`rtool-server: ${message}`),
  });
}

function remoteEngine(args: ServeArgs): LoadedModel {
  return createOpenAiEngine({
    url: args.engineUrl!,
    model: args.engineModel,
    apiKey: args.engineKey,
    timeoutMs: args.engineTimeoutMs,
    retries: args.engineRetries,
  });
}
