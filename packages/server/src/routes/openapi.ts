/**
 * `GET /openapi.json` (OpenAPI 3.1, generated from the same zod schemas that validate requests)
 * and `GET /docs`, a self-contained page listing the routes and their schemas: no script or
 * style is loaded from elsewhere, so it works offline.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import {
  chatCompletionSchema,
  chatCompletionsRequestSchema,
  errorReplySchema,
  functionCallReplySchema,
  functionCallRequestSchema,
  healthReplySchema,
} from "@rtool/contract";
import { Hono } from "hono";
import { html, raw } from "hono/html";
import type { ServerDeps } from "../deps";
import { completionSchema, completionsRequestSchema } from "./completions-schema";

const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });

const errors = {
  400: {
    description: "Malformed JSON or fields; `field` names the first bad one.",
    ...json(errorReplySchema),
  },
  401: { description: "Missing or wrong API key (when the server has one).", ...json(errorReplySchema) },
  413: { description: "Body over the size limit.", ...json(errorReplySchema) },
  422: {
    description: "Tools the model cannot serve (e.g. more than 6 parameters).",
    ...json(errorReplySchema),
  },
  429: { description: "The call queue is full.", ...json(errorReplySchema) },
  503: {
    description: "The model is loading, failed to load, or the server is stopping.",
    ...json(errorReplySchema),
  },
  502: { description: "The remote engine failed (`--engine openai`).", ...json(errorReplySchema) },
  504: {
    description: "The request took longer than the request timeout, or the remote engine than its own.",
    ...json(errorReplySchema),
  },
};

/** The OpenAPI 3.1 document of the server. */
export function openApiDocument(version: string): ReturnType<OpenAPIHono["getOpenAPI31Document"]> {
  const doc = new OpenAPIHono();
  const registry = doc.openAPIRegistry;
  registry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  registry.registerPath({
    method: "get",
    path: "/health",
    summary: "Liveness and model state (never needs the API key).",
    responses: { 200: { description: "The server is up.", ...json(healthReplySchema) } },
  });
  for (const format of ["v1", "v2"] as const) {
    registry.registerPath({
      method: "post",
      path: `/${format}/function_call`,
      summary: `One command to one typed call (${format === "v1" ? "the server's --format, v1 by default" : "v2 prompt format"}).`,
      description:
        "The query is the last user message. With `stream: true` the reply is Server-Sent Events: a `head` event per finished head ({head, text, done}), then a `call` event with the reply below.",
      security: [{ bearer: [] }],
      request: { body: { required: true, ...json(functionCallRequestSchema) } },
      responses: { 200: { description: "The call.", ...json(functionCallReplySchema) }, ...errors },
    });
  }
  registry.registerPath({
    method: "post",
    path: "/v1/chat/completions",
    summary: "OpenAI-compatible chat completions answering with `tool_calls`.",
    security: [{ bearer: [] }],
    request: { body: { required: true, ...json(chatCompletionsRequestSchema) } },
    responses: { 200: { description: "A chat.completion.", ...json(chatCompletionSchema) }, ...errors },
  });
  registry.registerPath({
    method: "post",
    path: "/v1/completions",
    summary: "OpenAI-compatible text completions; a list of prompts is decoded as one tree.",
    security: [{ bearer: [] }],
    request: { body: { required: true, ...json(completionsRequestSchema) } },
    responses: { 200: { description: "A text_completion.", ...json(completionSchema) }, ...errors },
  });
  registry.registerPath({
    method: "get",
    path: "/v1/models",
    summary: "OpenAI-style model list: the one model this server serves.",
    security: [{ bearer: [] }],
    responses: {
      200: {
        description: "The list.",
        ...json(
          z.object({
            object: z.literal("list"),
            data: z.array(
              z.object({
                id: z.string(),
                object: z.literal("model"),
                created: z.number(),
                owned_by: z.string(),
              }),
            ),
          }),
        ),
      },
    },
  });
  registry.registerPath({
    method: "get",
    path: "/metrics",
    summary: "Prometheus metrics.",
    security: [{ bearer: [] }],
    responses: {
      200: { description: "Text exposition format.", content: { "text/plain": { schema: z.string() } } },
    },
  });
  return doc.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "rtool-server",
      version,
      description: "Real-time function calling by multi-head parallel decoding.",
    },
  });
}

/**
 * The OpenAPI and docs routes, to mount at `/`.
 *
 * @example
 * ```ts
 * app.route("/", createOpenApiRoutes(deps)); // GET /openapi.json, GET /docs
 * ```
 */
export function createOpenApiRoutes(deps: ServerDeps): Hono {
  const document = openApiDocument(deps.version);
  return new Hono()
    .get("/openapi.json", (c) => c.json(document))
    .get("/docs", (c) => c.html(docsPage(document)));
}

function docsPage(document: ReturnType<typeof openApiDocument>) {
  const sections = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(
      item as Record<string, { summary?: string; description?: string; requestBody?: unknown }>,
    ).map(
      ([method, op]) => html`<section>
        <h2><code>${method.toUpperCase()} ${path}</code></h2>
        <p>${op.summary ?? ""}</p>
        ${op.description ? html`<p>${op.description}</p>` : ""}
        ${op.requestBody ? html`<details><summary>Request body</summary><pre>${JSON.stringify(op.requestBody, null, 2)}</pre></details>` : ""}
      </section>`,
    ),
  );
  const schemas = JSON.stringify(document.components?.schemas ?? {}, null, 2);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rtool-server API</title>
<style>${raw("body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.75rem;overflow:auto}code{font-size:.95em}")}</style>
</head><body>
<h1>rtool-server ${document.info.version}</h1>
<p>${document.info.description ?? ""} Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>
${sections}
<h2>Schemas</h2><pre>${schemas}</pre>
</body></html>`;
}
