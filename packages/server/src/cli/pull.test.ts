import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeHub } from "../testing/fake-hub";
import { PullError, pullModel } from "./pull";

const work = mkdtempSync(join(tmpdir(), "rtool-pull-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const weights = new Uint8Array(300_000).map((_, i) => i % 251);

describe("pullModel against a fake hub on 127.0.0.1", () => {
  test("downloads the files rtool reads, with progress, and skips the rest", async () => {
    const config = '{"architectures":["Qwen3ForCausalLM"]}';
    const hub = startFakeHub("org/tiny", {
      "config.json": config,
      "tokenizer.json": "{}",
      "model.safetensors": weights,
      "pytorch_model.bin": "skip me",
      "onnx/model.onnx": "skip me too",
    });
    try {
      const seen: number[] = [];
      let planned = 0;
      const dir = join(work, "tiny");
      const result = await pullModel({
        repo: "org/tiny",
        dir,
        endpoint: hub.url,
        onPlan: (_, total) => {
          planned = total;
        },
        onProgress: (_, __, done) => seen.push(done),
      });
      expect(result.files.map((f) => f.path).sort()).toEqual([
        "config.json",
        "model.safetensors",
        "tokenizer.json",
      ]);
      expect(readdirSync(dir).sort()).toEqual(["config.json", "model.safetensors", "tokenizer.json"]);
      expect(new Uint8Array(readFileSync(join(dir, "model.safetensors")))).toEqual(weights);
      expect(planned).toBe(weights.byteLength + 2 + config.length);
      expect(seen.at(-1)).toBe(planned);
      expect(hub.requests.some((p) => p.includes("pytorch_model.bin"))).toBe(false);
    } finally {
      hub.stop();
    }
  });

  test("a repository without safetensors is refused, naming the repository", async () => {
    const hub = startFakeHub("org/bin-only", { "config.json": "{}", "pytorch_model.bin": "x" });
    try {
      const pulled = pullModel({ repo: "org/bin-only", dir: join(work, "bin"), endpoint: hub.url });
      await expect(pulled).rejects.toBeInstanceOf(PullError);
      await expect(pulled).rejects.toThrow("org/bin-only: has no .safetensors");
    } finally {
      hub.stop();
    }
  });

  test("an unknown repository fails with a PullError, and leaves no partial files", async () => {
    const hub = startFakeHub("org/tiny", { "config.json": "{}" });
    try {
      const dir = join(work, "missing");
      await expect(pullModel({ repo: "org/missing", dir, endpoint: hub.url })).rejects.toBeInstanceOf(
        PullError,
      );
      expect(existsSync(dir)).toBe(false);
    } finally {
      hub.stop();
    }
  });
});
