/**
 * Progress while a model loads (its graph is built or read from the cache, then ONNX Runtime
 * loads it) and while a pull downloads: a `cli-progress` bar on a terminal, one line per stage
 * otherwise (logs, CI).
 */
import type { LoadProgress } from "@rtool/core";
import { Presets, SingleBar } from "cli-progress";

const STAGES: Record<LoadProgress["stage"], { step: number; text: string }> = {
  "build-graph": { step: 1, text: "building the ONNX graph from the weights" },
  "write-graph": { step: 2, text: "writing the graph to the cache" },
  "graph-cache-hit": { step: 2, text: "graph found in the cache" },
  "create-session": { step: 3, text: "loading into ONNX Runtime" },
};

/** A progress display for `loadModel`'s stages. */
export interface LoadProgressDisplay {
  update(progress: LoadProgress): void;
  done(message: string): void;
  fail(): void;
}

/**
 * Creates the load progress display.
 *
 * @example
 * ```ts
 * const progress = loadProgress("rt-tiny", process.stderr);
 * await loadModel(dir, { onProgress: (p) => progress.update(p) });
 * progress.done("ready");
 * ```
 */
export function loadProgress(model: string, stream: NodeJS.WriteStream): LoadProgressDisplay {
  if (!stream.isTTY) {
    stream.write(`loading ${model}\n`);
    return {
      update: (p) => stream.write(`  ${STAGES[p.stage].text}\n`),
      done: (message) => stream.write(`  ${message}\n`),
      fail: () => {},
    };
  }
  const bar = new SingleBar(
    { format: `loading ${model} [{bar}] {stage}`, stream, hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  bar.start(4, 0, { stage: "reading config and tokenizer" });
  return {
    update: (p) => bar.update(STAGES[p.stage].step, { stage: STAGES[p.stage].text }),
    done: (message) => {
      bar.update(4, { stage: message });
      bar.stop();
    },
    fail: () => bar.stop(),
  };
}

/** A byte-progress display for downloads. */
export interface DownloadProgressDisplay {
  plan(totalBytes: number, files: number): void;
  update(file: string, doneBytes: number): void;
  done(): void;
  /** Ends the display without claiming success: the caller prints the error. */
  fail(): void;
}

/** Creates the download progress display. */
export function downloadProgress(repo: string, stream: NodeJS.WriteStream): DownloadProgressDisplay {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  if (!stream.isTTY) {
    let lastFile = "";
    return {
      plan: (total, files) => stream.write(`pulling ${repo}: ${files} files, ${mb(total)} MB\n`),
      update: (file) => {
        if (file !== lastFile) stream.write(`  ${file}\n`);
        lastFile = file;
      },
      done: () => stream.write("  done\n"),
      fail: () => {},
    };
  }
  const bar = new SingleBar(
    { format: `pulling ${repo} [{bar}] {percentage}% {done}/{all} MB {file}`, stream, hideCursor: true },
    Presets.shades_classic,
  );
  let total = 0;
  return {
    plan: (bytes) => {
      total = bytes;
      bar.start(Math.max(1, bytes), 0, { file: "", done: "0.0", all: mb(bytes) });
    },
    update: (file, done) => bar.update(done, { file, done: mb(done), all: mb(total) }),
    done: () => bar.stop(),
    fail: () => bar.stop(),
  };
}
