/**
 * Opens the weights of a Hugging Face model directory: a single `model.safetensors`, or shards
 * listed by `model.safetensors.index.json`.
 */
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { SafetensorsError, TensorMissingError } from "./errors";
import { readSafetensorsHeader, SafetensorsFile, type StoredTensor } from "./safetensors";
import type { WeightSource } from "./types";

/** Name of the single-file checkpoint. */
export const SINGLE_FILE = "model.safetensors";
/** Name of the shard index of a sharded checkpoint. */
export const SHARD_INDEX_FILE = "model.safetensors.index.json";

/** A stored tensor together with the shard that holds it. */
export interface ShardedTensor extends StoredTensor {
  /** Shard file name, relative to the model directory. */
  shard: string;
}

/**
 * A sharded checkpoint as one {@link WeightSource}. Every shard's header is read (and the file
 * closed again) on construction, so `tensors` is complete; a shard's data file is opened on the
 * first read from it and kept open until {@link ShardedWeights.close}.
 * @example
 * const weights = new ShardedWeights("model/model.safetensors.index.json");
 * weights.readFloat32("model.norm.weight");
 * weights.close();
 */
export class ShardedWeights implements WeightSource {
  readonly indexFile: string;
  readonly tensors: ReadonlyMap<string, ShardedTensor>;
  private readonly dir: string;
  private readonly openShards = new Map<string, SafetensorsFile>();

  /** @throws {SafetensorsError} missing or malformed index, missing shard, tensor absent from its shard */
  constructor(indexFile: string) {
    this.indexFile = indexFile;
    this.dir = join(indexFile, "..");
    const weightMap = readWeightMap(indexFile);

    const byShard = new Map<string, string[]>();
    for (const [tensor, shard] of Object.entries(weightMap)) {
      const names = byShard.get(shard) ?? [];
      names.push(tensor);
      byShard.set(shard, names);
    }
    const tensors = new Map<string, ShardedTensor>();
    for (const [shard, names] of byShard) {
      const shardFile = join(this.dir, shard);
      const header = readHeaderOf(shardFile, indexFile);
      for (const name of names) {
        const info = header.get(name);
        if (!info)
          throw new TensorMissingError(name, shardFile, `${basename(indexFile)} places it in ${shard}`);
        tensors.set(name, { ...info, shard });
      }
    }
    this.tensors = tensors;
  }

  private shardOf(name: string): { info: ShardedTensor; file: SafetensorsFile } {
    const info = this.tensors.get(name);
    if (!info) throw new TensorMissingError(name, this.indexFile);
    let file = this.openShards.get(info.shard);
    if (!file) {
      file = new SafetensorsFile(join(this.dir, info.shard));
      this.openShards.set(info.shard, file);
    }
    return { info, file };
  }

  /** The shard holding `name`, or the index file when no shard does, for error messages. */
  fileOf(name: string): string {
    const info = this.tensors.get(name);
    return info ? join(this.dir, info.shard) : this.indexFile;
  }

  readBytes(name: string): Uint8Array {
    return this.shardOf(name).file.readBytes(name);
  }

  readFloat32(name: string): Float32Array {
    return this.shardOf(name).file.readFloat32(name);
  }

  close(): void {
    for (const file of this.openShards.values()) file.close();
    this.openShards.clear();
  }
}

/** Parses the `weight_map` of a shard index, refusing shard names that leave the directory. */
function readWeightMap(indexFile: string): Record<string, string> {
  let index: unknown;
  try {
    index = JSON.parse(readFileSync(indexFile, "utf8"));
  } catch (cause) {
    throw new SafetensorsError(
      `${indexFile}: cannot read shard index (${(cause as Error).message})`,
      { file: indexFile },
      { cause },
    );
  }
  const weightMap = (index as { weight_map?: unknown } | null)?.weight_map;
  if (typeof weightMap !== "object" || weightMap === null || Array.isArray(weightMap)) {
    throw new SafetensorsError(`${indexFile}: missing "weight_map" object`, { file: indexFile });
  }
  for (const [tensor, shard] of Object.entries(weightMap)) {
    if (typeof shard !== "string" || shard === "" || shard !== basename(shard) || shard.startsWith(".")) {
      throw new SafetensorsError(
        `${indexFile}: tensor "${tensor}" maps to bad shard name ${JSON.stringify(shard)}`,
        {
          file: indexFile,
          tensor,
        },
      );
    }
  }
  return weightMap as Record<string, string>;
}

/** Reads one shard's header and closes it again. */
function readHeaderOf(shardFile: string, indexFile: string): Map<string, StoredTensor> {
  let fd: number;
  try {
    fd = openSync(shardFile, "r");
  } catch (cause) {
    throw new SafetensorsError(
      `${shardFile}: shard listed in ${basename(indexFile)} cannot be opened (${(cause as Error).message})`,
      { file: shardFile },
      { cause },
    );
  }
  try {
    return readSafetensorsHeader(fd, shardFile).tensors;
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens the weights in a model directory: `model.safetensors` when present, else the shards of
 * `model.safetensors.index.json`.
 * @throws {SafetensorsError} neither exists, or the files are malformed
 * @example
 * const weights = openWeights("models/qwen3-0.6b");
 * try {
 *   const norm = weights.readFloat32("model.norm.weight");
 * } finally {
 *   weights.close();
 * }
 */
export function openWeights(dir: string): WeightSource {
  const single = join(dir, SINGLE_FILE);
  if (existsSync(single)) return new SafetensorsFile(single);
  const index = join(dir, SHARD_INDEX_FILE);
  if (existsSync(index)) return new ShardedWeights(index);
  throw new SafetensorsError(`${dir}: no ${SINGLE_FILE} or ${SHARD_INDEX_FILE} found`, { file: single });
}
