/**
 * rtool-server as a child process, started through its published `rtool-server` bin (read from
 * @rtool/server's package.json, so this follows the package wherever the bin moves): the app
 * and its tests talk to it over HTTP only, exactly as a game would.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Options of {@link startRtoolServer}. */
export interface RtoolProcessOptions {
  /** `rt-tiny` (the embedded model) or a Hugging Face model directory; default rt-tiny. */
  model?: string;
  /** Port; default 8899; 0 picks a free one. */
  port?: number;
  /** Interface; default 127.0.0.1. */
  host?: string;
  /** More flags for rtool-server, e.g. ["--threads", "2"]. */
  args?: string[];
  /** Lines the server prints (its own output is not echoed otherwise). */
  onOutput?: (line: string) => void;
}

/** A running rtool-server. */
export interface RtoolProcess {
  url: string;
  /** Resolves once `/health` says the model is loaded; rejects if loading fails or the process exits. */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGTERM (the server finishes calls in flight), then waits for the exit. */
  stop(): Promise<void>;
}

/** rtool-server could not be started or did not become ready. */
export class RtoolProcessError extends Error {
  /** What the server printed last. */
  readonly output: string[];
  constructor(message: string, output: string[]) {
    super(`${message}${output.length > 0 ? `\n${output.slice(-12).join("\n")}` : ""}`);
    this.name = "RtoolProcessError";
    this.output = output;
  }
}

/** The path of @rtool/server's `rtool-server` bin. */
export function rtoolServerBin(): string {
  let dir = dirname(Bun.resolveSync("@rtool/server", import.meta.dir));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new RtoolProcessError("cannot find @rtool/server's package.json", []);
    dir = parent;
  }
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    bin?: Record<string, string>;
  };
  const bin = manifest.bin?.["rtool-server"];
  if (!bin) throw new RtoolProcessError("@rtool/server declares no rtool-server bin", []);
  return join(dir, bin);
}

/**
 * Starts rtool-server and resolves once it listens (the model may still be loading: use `ready()`).
 *
 * @example
 * const rtool = await startRtoolServer({ model: "rt-tiny", port: 8899 });
 * await rtool.ready();
 * // POST `${rtool.url}/v2/function_call` ...
 * await rtool.stop();
 */
export async function startRtoolServer(options: RtoolProcessOptions = {}): Promise<RtoolProcess> {
  const output: string[] = [];
  const proc = Bun.spawn(
    [
      process.execPath,
      rtoolServerBin(),
      "--model",
      options.model ?? "rt-tiny",
      "--port",
      String(options.port ?? 8899),
      "--host",
      options.host ?? "127.0.0.1",
      ...(options.args ?? []),
    ],
    { stdout: "pipe", stderr: "pipe", stdin: "ignore" },
  );
  let exited = false;
  const exit = proc.exited.then((code) => {
    exited = true;
    return code;
  });
  let announce!: (url: string) => void;
  const listening = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = stream.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r?\n|\r/);
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim().length === 0) continue;
        output.push(line);
        if (output.length > 200) output.shift();
        options.onOutput?.(line);
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match) announce(match[1]!.replace(/\/$/, ""));
      }
    }
  };
  void read(proc.stdout);
  void read(proc.stderr);

  const url = await Promise.race([
    listening,
    exit.then((code) => {
      throw new RtoolProcessError(`rtool-server exited with code ${code} before listening`, output);
    }),
  ]);

  return {
    url,
    async ready(timeoutMs = 300_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (exited) throw new RtoolProcessError("rtool-server exited while loading its model", output);
        try {
          const health = (await (await fetch(`${url}/health`)).json()) as {
            status?: string;
            loaded?: boolean;
          };
          if (health.loaded) return;
          if (health.status === "error")
            throw new RtoolProcessError("rtool-server failed to load its model", output);
        } catch (error) {
          if (error instanceof RtoolProcessError) throw error;
        }
        await Bun.sleep(200);
      }
      throw new RtoolProcessError(`rtool-server did not load its model within ${timeoutMs} ms`, output);
    },
    async stop() {
      if (exited) return;
      proc.kill("SIGTERM");
      const done = await Promise.race([exit, Bun.sleep(10_000).then(() => null)]);
      if (done === null) {
        proc.kill("SIGKILL");
        await exit;
      }
    },
  };
}
