import type { TargetCall, ToolSpec } from "./types";

/** A generated target call that does not fit its tool set (a generator bug or a changed scenario). */
export class TargetCallError extends Error {
  constructor(
    readonly scenario: string,
    readonly call: TargetCall,
    reason: string,
  ) {
    super(`${scenario}: ${call.function}(${JSON.stringify(call.args)}): ${reason}`);
    this.name = "TargetCallError";
  }
}

/** Throws unless `call` names one of `tools`, with known, required and type-correct args. */
export function checkTargetCall(scenario: string, tools: ToolSpec[], call: TargetCall): void {
  const tool = tools.find((t) => t.function.name === call.function);
  if (!tool) throw new TargetCallError(scenario, call, "unknown function");
  const props = tool.function.parameters.properties;
  for (const [key, value] of Object.entries(call.args)) {
    const schema = props[key];
    if (!schema) throw new TargetCallError(scenario, call, `unknown argument ${key}`);
    if (schema.enum && !schema.enum.includes(value as string | number)) {
      throw new TargetCallError(scenario, call, `${key}=${value} is not in its enum`);
    }
    const t = schema.type;
    const ok =
      t === "string"
        ? typeof value === "string" && value.length > 0
        : t === "boolean"
          ? typeof value === "boolean"
          : t === "integer"
            ? Number.isInteger(value)
            : typeof value === "number" && Number.isFinite(value);
    if (!ok) throw new TargetCallError(scenario, call, `${key}=${JSON.stringify(value)} is not a ${t}`);
  }
  for (const key of tool.function.parameters.required ?? []) {
    if (!(key in call.args)) throw new TargetCallError(scenario, call, `required ${key} missing`);
  }
}
