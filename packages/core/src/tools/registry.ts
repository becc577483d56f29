/**
 * `ToolRegistry`: the tools an application serves, in the order the prompt lists them. Adding a
 * tool runs the same checks as a request's tool list (`normalizeTools`), so a registry that was
 * built without error is one every route and the decoder accept.
 */
import { buildPrompt, systemPrefix } from "../prompt/build";
import type { PromptFormat, PromptRequest } from "../prompt/request";
import { normalizeTools, ToolSchemaError, type ToolSpec } from "../prompt/tools";
import { type DeclaredTool, isToolDefinition, type ToolDefinition } from "./define-tool";

/** Marks registries across module copies (the worker finds them among a module's exports). */
export const TOOL_REGISTRY = Symbol.for("rtool.toolRegistry");

/** A tool of any parameter and result types. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of any argument and result types.
export type AnyTool = ToolDefinition<any, any>;

/** A user turn for {@link ToolRegistry.buildPrompt}: everything of a prompt but the tools. */
export type RegistryPromptRequest = Omit<PromptRequest, "tools">;

/**
 * Holds tools; renders them for prompts and requests.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry([move, fire]);
 * const result = await caller.call({ query: "fire at the boss", tools: registry.tools() });
 * await fetch(url, { method: "POST", body: JSON.stringify({ messages, tools: registry.tools() }) });
 * registry.buildPrompt("v2", { query: "go left", environment: ["hp: 3"] }); // the exact prompt text
 * ```
 */
export class ToolRegistry {
  readonly [TOOL_REGISTRY] = true;
  private readonly byName = new Map<string, AnyTool>();
  private ordered: AnyTool[] = [];

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.add(tool);
  }

  /**
   * Adds a tool at the end of the list.
   *
   * @throws {ToolSchemaError} for a duplicate name or a value that is not a `defineTool` result.
   */
  add(tool: AnyTool): this {
    const index = this.ordered.length;
    if (!isToolDefinition(tool)) {
      throw new ToolSchemaError(`tools[${index}]`, "must be a tool made by defineTool()");
    }
    // The list check reports duplicates (and anything else a request would be refused for).
    normalizeTools([...this.ordered.map((t) => t.tool), tool.tool]);
    this.ordered = [...this.ordered, tool];
    this.byName.set(tool.name, tool);
    return this;
  }

  /** The tool named `name`, if registered. */
  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Tool names in prompt order. */
  names(): string[] {
    return this.ordered.map((t) => t.name);
  }

  /** The definitions in prompt order. */
  list(): readonly AnyTool[] {
    return this.ordered;
  }

  get size(): number {
    return this.ordered.length;
  }

  /** OpenAI-style tools in prompt order: the `tools` of an HTTP request. */
  tools(): DeclaredTool[] {
    return this.ordered.map((t) => t.tool);
  }

  /** Normalised tools in prompt order (parameter order, types, enums; what `mapHeadsToCall` takes). */
  specs(): ToolSpec[] {
    return this.ordered.map((t) => t.spec);
  }

  /** The system turn for these tools (the prefix-cache key part), via core's prompt builders. */
  systemPrefix(format: PromptFormat, system?: string): string {
    return systemPrefix(format, { tools: this.specs(), system });
  }

  /** The whole prompt for a command, via core's prompt builders. */
  buildPrompt(format: PromptFormat, request: RegistryPromptRequest): string {
    return buildPrompt(format, { ...request, tools: this.specs() });
  }
}

/** True for a {@link ToolRegistry} (in this or another copy of the module). */
export function isToolRegistry(value: unknown): value is ToolRegistry {
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TOOL_REGISTRY] === true
  );
}
