/**
 * A test double for rtool-server's HTTP surface: `POST /v2/function_call` answered by fixed rules
 * over the request's tools, environment and query (ships line up and fire, the paddle follows the
 * ball, "<name> ... skill" uses that operator's skill, "tap/jump/flap" flaps), as JSON or SSE.
 * It stands in for the transport only, so the browser test can run before a model exists.
 */

interface Tool {
  function: { name: string; parameters?: { properties?: Record<string, unknown> } };
}

interface Body {
  messages: Array<{ role: string; content: string }>;
  tools: Tool[];
  environment?: string[];
  stream?: boolean;
}

type Call = { function: string; args: Record<string, string> };

function env(lines: string[] | undefined): Record<string, string> {
  return Object.fromEntries((lines ?? []).map((line) => line.split("=", 2) as [string, string]));
}

function decide(body: Body): Call {
  const names = new Set(body.tools.map((tool) => tool.function.name));
  const query = body.messages.at(-1)?.content ?? "";
  const e = env(body.environment);
  if (names.has("fire")) {
    const [x, y] = (e.pos ?? "0,0").split(",").map(Number);
    const [px, py] = (e.player ?? "0,0").split(",").map(Number);
    if (e.align_h === "true" && e.cd === "0")
      return { function: "fire", args: { direction: px! < x! ? "left" : "right" } };
    return { function: "move", args: { direction: py! < y! ? "up" : "down" } };
  }
  if (names.has("move_paddle")) {
    const ballY = Number((e.ball ?? "0,0").split(",")[1]);
    const paddleY = Number(e.paddle_y ?? 0);
    const direction = Math.abs(ballY - paddleY) < 20 ? "stay" : ballY < paddleY ? "up" : "down";
    return { function: "move_paddle", args: { direction } };
  }
  if (names.has("flap")) return { function: /tap|jump|flap|fly/i.test(query) ? "flap" : "wait", args: {} };
  const unit = /\b([A-Z][a-zA-Z]+)\b/.exec(query)?.[1] ?? "Amiya";
  if (/skill/i.test(query)) return { function: "use_skill", args: { unit_id: unit } };
  if (/retreat|fall back/i.test(query)) return { function: "retreat", args: { unit_id: unit } };
  return { function: "pass", args: {} };
}

/** Starts the double on 127.0.0.1; `calls` counts the requests it answered. */
export function startScriptedRtoolServer(): { url: string; calls: () => number; stop: () => void } {
  let calls = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/health") return Response.json({ status: "ok", loaded: true, model: "scripted" });
      if (path !== "/v2/function_call") return new Response("not found", { status: 404 });
      const body = (await request.json()) as Body;
      calls += 1;
      const call = decide(body);
      const tool = body.tools.find((t) => t.function.name === call.function)!;
      const keys = Object.keys(tool.function.parameters?.properties ?? {});
      const heads: Record<string, string> = { function: call.function };
      keys.forEach((key, i) => {
        heads[`arg${i + 1}`] = call.args[key] ?? "<|null|>";
      });
      const reply = {
        success: true,
        function: call.function,
        args: call.args,
        heads,
        content: null,
        latency_ms: 1,
        error: null,
        valid: true,
        errors: [],
      };
      if (!body.stream) return Response.json(reply);
      const text = `${Object.entries(heads)
        .map(([head, value]) => `event: head\ndata: ${JSON.stringify({ head, text: value, done: true })}\n\n`)
        .join("")}event: call\ndata: ${JSON.stringify(reply)}\n\n`;
      return new Response(text, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: server.url.href.replace(/\/$/, ""), calls: () => calls, stop: () => server.stop(true) };
}
