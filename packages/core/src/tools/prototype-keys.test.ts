/**
 * JSON Schema tools with parameters named like prototype keys (`__proto__`, `constructor`,
 * `prototype`): their arguments are checked and passed to the handler as own keys, and an
 * inherited key of a plain object is never taken for an argument.
 */
import { describe, expect, test } from "bun:test";
import { defineTool } from "./define-tool";
import { ToolExecutor } from "./executor";
import { checkJsonArgs } from "./json-schema-args";
import { ToolRegistry } from "./registry";

const NAMES = ["__proto__", "constructor", "prototype"] as const;
// JSON.parse, as a server reads a body: `"__proto__"` becomes an own key, not the prototype
// (and so does Object.fromEntries).
const parse = (json: string) => JSON.parse(json) as Record<string, unknown>;
const properties = Object.fromEntries(NAMES.map((n) => [n, { type: "string" as const }]));
const all = () => parse('{"__proto__":"a","constructor":"b","prototype":"c"}');

function tool(required: readonly string[]) {
  const seen: { args?: Record<string, unknown> } = {};
  const definition = defineTool({
    name: "set",
    parameters: { type: "object", properties, required },
    handler: (args: Record<string, unknown>) => {
      seen.args = args;
      return Object.keys(args).join(",");
    },
  });
  return { definition, seen };
}

describe("checkJsonArgs with prototype keys", () => {
  test("all three given: valid, own keys, no prototype", () => {
    const { definition } = tool(NAMES);
    const checked = checkJsonArgs(definition.spec, all());
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(Object.getPrototypeOf(checked.value)).toBeNull();
    expect(Object.keys(checked.value)).toEqual([...NAMES]);
    expect(JSON.stringify(checked.value)).toBe('{"__proto__":"a","constructor":"b","prototype":"c"}');
  });

  test("none given to `{}`: the inherited constructor and __proto__ are not arguments", () => {
    const { definition } = tool(NAMES);
    const checked = checkJsonArgs(definition.spec, {});
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues.map((i) => i.path)).toEqual(NAMES.map((n) => `args.${n}`));
    for (const issue of checked.issues) expect(issue.message).toContain("missing required parameter");
  });

  test("optional and absent: no key at all, not Object.prototype's", () => {
    const { definition } = tool([]);
    const checked = checkJsonArgs(definition.spec, {});
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(Object.keys(checked.value)).toEqual([]);
  });

  test("a wrong type under __proto__ is reported at its path", () => {
    const { definition } = tool(NAMES);
    const checked = checkJsonArgs(
      definition.spec,
      parse('{"__proto__":1,"constructor":"b","prototype":"c"}'),
    );
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.issues[0]!.path).toBe("args.__proto__");
  });
});

describe("ToolExecutor end to end with prototype keys", () => {
  test("the handler gets all three as own keys", async () => {
    const { definition, seen } = tool(NAMES);
    const executor = new ToolExecutor(new ToolRegistry([definition]), { timeoutMs: 1000 });
    const result = await executor.execute({ function: "set", args: all() });
    expect(result.status).toBe("ok");
    if (result.ok) expect(result.value).toBe("__proto__,constructor,prototype");
    const own = (name: string) => Object.getOwnPropertyDescriptor(seen.args, name)?.value;
    expect(NAMES.map(own)).toEqual(["a", "b", "c"]);
  });

  test("a missing __proto__ is invalid_arguments, not a silent success", async () => {
    const { definition } = tool(NAMES);
    const executor = new ToolExecutor(new ToolRegistry([definition]), { timeoutMs: 1000 });
    const result = await executor.execute({
      function: "set",
      args: parse('{"constructor":"b","prototype":"c"}'),
    });
    expect(result.status).toBe("invalid_arguments");
  });
});
