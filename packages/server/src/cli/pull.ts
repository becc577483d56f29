/**
 * `rtool-server pull REPO_ID`: downloads the files rtool loads (config, safetensors weights,
 * tokenizer) of a Hugging Face model repository through `@huggingface/hub`, with progress.
 * Each file is written to a `.part` file and renamed when complete, so an interrupted pull never
 * leaves a truncated weight file under its real name.
 */
import { createWriteStream, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { downloadFile, listFiles } from "@huggingface/hub";

/** Files of a repository that rtool reads; everything else (other formats, images) is skipped. */
const WANTED = [
  /^config\.json$/,
  /^generation_config\.json$/,
  /^tokenizer\.json$/,
  /^tokenizer_config\.json$/,
  /^special_tokens_map\.json$/,
  /^model\.safetensors\.index\.json$/,
  /^model(-\d+-of-\d+)?\.safetensors$/,
  /^README\.md$/,
  /^LICENSE(\.md|\.txt)?$/,
];

/** A pull that cannot complete; `repo` and `file` say where. */
export class PullError extends Error {
  override readonly name = "PullError";
  constructor(
    readonly repo: string,
    readonly file: string | null,
    message: string,
  ) {
    super(`${repo}${file ? `/${file}` : ""}: ${message}`);
  }
}

/** Options of {@link pullModel}. */
export interface PullOptions {
  /** `owner/name`. */
  repo: string;
  /** Target directory; default `models/<name>`. */
  dir?: string;
  /** Hub URL; default the public hub. */
  endpoint?: string;
  /** Branch, tag or commit; default "main". */
  revision?: string;
  /** Access token (private or gated repositories). */
  token?: string;
  /** Told once with the files to fetch and their total size. */
  onPlan?: (files: readonly { path: string; size: number }[], totalBytes: number) => void;
  /** Told as bytes arrive. */
  onProgress?: (file: string, fileBytes: number, doneBytes: number) => void;
}

/** What a pull wrote. */
export interface PullResult {
  dir: string;
  files: { path: string; size: number }[];
}

/**
 * Downloads a model repository's rtool files into a directory.
 *
 * @example
 * ```ts
 * const { dir } = await pullModel({ repo: "Qwen/Qwen3-0.6B", dir: "models/qwen3-0.6b" });
 * const model = await loadModel(dir);
 * ```
 */
export async function pullModel(options: PullOptions): Promise<PullResult> {
  const { repo } = options;
  const dir = options.dir ?? join("models", basename(repo));
  const common = {
    repo: { type: "model" as const, name: repo },
    revision: options.revision ?? "main",
    ...(options.endpoint ? { hubUrl: options.endpoint.replace(/\/+$/, "") } : {}),
    ...(options.token ? { accessToken: options.token } : {}),
  };
  const files: { path: string; size: number }[] = [];
  try {
    for await (const entry of listFiles({ ...common, recursive: true })) {
      if (entry.type === "file" && WANTED.some((re) => re.test(entry.path))) {
        files.push({ path: entry.path, size: entry.lfs?.size ?? entry.size });
      }
    }
  } catch (error) {
    throw new PullError(repo, null, `cannot list the repository (${describe(error)})`);
  }
  if (!files.some((f) => f.path === "config.json")) throw new PullError(repo, "config.json", "is missing");
  if (!files.some((f) => f.path.endsWith(".safetensors"))) {
    throw new PullError(repo, null, "has no .safetensors weights (rtool does not read .bin or .gguf)");
  }
  const total = files.reduce((sum, f) => sum + f.size, 0);
  options.onPlan?.(files, total);

  let done = 0;
  for (const file of files) {
    const target = join(dir, file.path);
    const partial = `${target}.part`;
    mkdirSync(dirname(target), { recursive: true });
    let blob: Blob | null;
    try {
      blob = await downloadFile({ ...common, path: file.path });
    } catch (error) {
      throw new PullError(repo, file.path, `download failed (${describe(error)})`);
    }
    if (!blob) throw new PullError(repo, file.path, "is listed but cannot be downloaded");
    let written = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        written += chunk.byteLength;
        done += chunk.byteLength;
        options.onProgress?.(file.path, written, done);
        controller.enqueue(chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(blob.stream().pipeThrough(counter) as never),
        createWriteStream(partial),
      );
    } catch (error) {
      rmSync(partial, { force: true });
      throw new PullError(repo, file.path, `download failed (${describe(error)})`);
    }
    if (written !== file.size) {
      rmSync(partial, { force: true });
      throw new PullError(repo, file.path, `got ${written} bytes, expected ${file.size}`);
    }
    renameSync(partial, target);
  }
  return { dir, files };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
