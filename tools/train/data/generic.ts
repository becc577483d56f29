import type { Phrasing } from "./phrasing";
import type { Draw } from "./scenarios/draw";
import type { ArgValue, ToolSpec } from "./types";

const STRINGS = ["Alpha", "Bravo", "north gate", "Kai", "Unit 7", "blue", "Main Hall"];

/**
 * Requests for a scenario the generator has no dedicated phrasings for: the tool and
 * parameter names are said as words, values are drawn from each parameter's type or enum.
 * This keeps a new scenario file in the training mix the moment it appears.
 */
export function drawGeneric(ph: Phrasing, tools: ToolSpec[]): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const tool = r.pick(tools).function;
  const args: Record<string, ArgValue> = {};
  const phrases: string[] = [];
  const exact: Record<string, string> = {};
  for (const [key, schema] of Object.entries(tool.parameters.properties)) {
    if (!(tool.parameters.required ?? []).includes(key) && !r.chance(0.5)) continue;
    const words = key.replace(/_/g, " ");
    let value: ArgValue;
    if (schema.enum) value = r.pick(schema.enum);
    else if (schema.type === "boolean") value = r.chance(0.5);
    else if (schema.type === "integer") value = r.int(0, 100);
    else if (schema.type === "number") value = r.chance(0.3) ? r.int(0, 1000) / 10 : r.int(-100, 500);
    else value = r.pick(STRINGS);
    args[key] = value;
    const slot = `g${phrases.length}`;
    exact[slot] = String(value);
    phrases.push(
      en
        ? r.pick([`${words} {${slot}}`, `${words}: {${slot}}`, `with ${words} {${slot}}`])
        : r.pick([`${words}为{${slot}}`, `${words}：{${slot}}`, `${words}设为{${slot}}`]),
    );
  }
  const name = tool.name.replace(/_/g, " ");
  const head = en
    ? r.pick([name, `please ${name}`, `${name} now`])
    : r.pick([`${name}`, `执行${name}`, `请${name}`]);
  const body = phrases.length ? `${head}${en ? ", " : "，"}${phrases.join(en ? ", " : "，")}` : head;
  const query = ph.say(body, {}, exact, 0.5);
  return { query, history: [], call: { function: tool.name, args } };
}
