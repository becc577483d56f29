/**
 * Reads a JSON request body strictly: bounded size, valid UTF-8, bounded nesting, valid JSON, then
 * a zod schema. Every failure is an {@link ApiError} naming the field, so clients can fix the
 * request without reading server logs.
 */
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import { ApiError, formatPath } from "./api-error";

/** Limits of {@link jsonBody}. */
export interface JsonBodyOptions {
  /** Bytes; larger bodies get 413. */
  maxBytes: number;
  /** Deepest allowed nesting of arrays and objects; deeper bodies get 400. */
  maxDepth: number;
}

/** Default limits: 1 MiB, 64 levels. */
export const DEFAULT_JSON_BODY_OPTIONS: JsonBodyOptions = { maxBytes: 1 << 20, maxDepth: 64 };

/** Variables a {@link jsonBody} middleware sets: the parsed, validated body. */
export interface JsonBodyEnv<T> {
  Variables: { body: T };
}

/**
 * Middleware that parses the body against `schema` and stores it as `c.get("body")`.
 *
 * @example
 * ```ts
 * app.post("/echo", jsonBody(z.object({ text: z.string() })), (c) => c.json(c.get("body")));
 * ```
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
  options: JsonBodyOptions = DEFAULT_JSON_BODY_OPTIONS,
): MiddlewareHandler<JsonBodyEnv<z.infer<S>>> {
  return async (c, next) => {
    checkContentType(c.req.header("content-type"));
    const bytes = await readBody(c.req.raw, options.maxBytes);
    const data = parseJson(bytes, options.maxDepth);
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: formatPath(issue.path),
        message: issue.message,
      }));
      const first = issues[0]!;
      throw new ApiError(400, "invalid_request", first.path, first.message, issues);
    }
    c.set("body", parsed.data as z.infer<S>);
    await next();
  };
}

/**
 * Only `application/json` (parameters such as `charset=utf-8` allowed). A browser sends
 * `text/plain` or form bodies cross-site without a preflight; refusing them stops a web page
 * from driving a local server with "simple" requests.
 */
function checkContentType(header: string | undefined): void {
  const mediaType = (header ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType === "application/json") return;
  const given = header === undefined ? "no Content-Type" : `Content-Type ${JSON.stringify(header)}`;
  throw new ApiError(415, "unsupported_media_type", "content-type", `must be application/json; got ${given}`);
}

async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  // A declared length within the limit is all the server will read: take the body in one piece.
  if (declared !== null) return new Uint8Array(await request.arrayBuffer());
  if (!request.body) throw new ApiError(400, "invalid_json", "body", "a JSON body is required");
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    // Chunked bodies carry no length up front: stop reading as soon as the limit is passed.
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "body_too_large", "body", `is larger than the limit of ${maxBytes} bytes`);
}

/** Parses bytes as JSON after the UTF-8 and nesting checks. */
export function parseJson(bytes: Uint8Array, maxDepth: number): unknown {
  if (bytes.byteLength === 0)
    throw new ApiError(400, "invalid_json", "body", "is empty; a JSON object is required");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, "invalid_json", "body", "is not valid UTF-8");
  }
  const depth = nestingDepth(text);
  if (depth > maxDepth) {
    throw new ApiError(
      400,
      "invalid_json",
      "body",
      `nests ${depth} levels deep; at most ${maxDepth} are allowed`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiError(400, "invalid_json", "body", `is not valid JSON (${reason})`);
  }
}

/** Deepest bracket nesting outside strings; computed before parsing so a hostile body costs one scan. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return deepest;
}
