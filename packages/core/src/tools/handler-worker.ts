/**
 * The worker side of handler isolation: imports the application's tool module (given as
 * `workerData.module`), finds the tools among its exports (`defineTool` results and
 * `ToolRegistry`s, named or default) and runs one handler at a time on request. A handler that
 * throws answers with the error; one that hangs or calls `process.exit` only takes this worker down.
 */
import { parentPort, workerData } from "node:worker_threads";
import { isToolDefinition, type ToolDefinition } from "./define-tool";
import { errorInfo } from "./execution-result";
import { isToolRegistry } from "./registry";
import type { WorkerReply, WorkerRequest } from "./worker-protocol";

const port = parentPort;
if (!port) throw new Error("handler-worker.ts runs only as a worker thread");

// biome-ignore lint/suspicious/noExplicitAny: handlers of any argument and result types.
type AnyTool = ToolDefinition<any, any>;
const post = (reply: WorkerReply) => port.postMessage(reply);
const running = new Map<number, AbortController>();

function collectTools(exports: Record<string, unknown>): Map<string, AnyTool> {
  const tools = new Map<string, AnyTool>();
  for (const value of Object.values(exports)) {
    if (isToolDefinition(value)) tools.set(value.name, value);
    else if (isToolRegistry(value)) for (const tool of value.list()) tools.set(tool.name, tool);
  }
  return tools;
}

async function main(): Promise<void> {
  let tools: Map<string, AnyTool>;
  try {
    tools = collectTools(
      (await import((workerData as { module: string }).module)) as Record<string, unknown>,
    );
  } catch (error) {
    post({ type: "load_error", error: errorInfo(error) });
    return;
  }
  post({ type: "ready", tools: [...tools.keys()] });
  port!.on("message", async (request: WorkerRequest) => {
    if (request.type === "abort") {
      running.get(request.id)?.abort(new Error("aborted by the executor"));
      return;
    }
    const tool = tools.get(request.tool);
    if (!tool) {
      const error = {
        name: "UnknownToolError",
        message: `the isolation module exports no tool "${request.tool}"`,
      };
      post({ type: "error", id: request.id, error });
      return;
    }
    const controller = new AbortController();
    running.set(request.id, controller);
    try {
      const value = await tool.handler(request.args, {
        signal: controller.signal,
        tool: request.tool,
        callId: request.callId,
      });
      try {
        post({ type: "result", id: request.id, value });
      } catch (error) {
        post({
          type: "error",
          id: request.id,
          error: {
            name: "DataCloneError",
            message: `the handler's result cannot leave the worker: ${errorInfo(error).message}`,
          },
        });
      }
    } catch (error) {
      post({ type: "error", id: request.id, error: errorInfo(error) });
    } finally {
      running.delete(request.id);
    }
  });
}

void main();
