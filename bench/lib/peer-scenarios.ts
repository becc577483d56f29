/**
 * The reference scenarios as the peer benchmark uses them: per example, the /v2 prompt rtool
 * builds, its system prefix (what a warm cache holds), the expected call as rtool's head scripts
 * and as the JSON text the peers produce, and a JSON schema of the tools for llama.cpp's grammar.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CallRequest } from "../../packages/core/src/caller/types";
import type { HeadScript } from "../../packages/core/src/decode/testing/forced-runtime";
import { buildPrompt, systemPrefix } from "../../packages/core/src/prompt/build";
import {
  END_OF_TURN,
  headCloseTag,
  headNames,
  headTag,
  NULL_MARKER,
} from "../../packages/core/src/prompt/heads";
import { maxParameterCount, normalizeTools, type ToolSpec } from "../../packages/core/src/prompt/tools";
import type { RtoolTokenizer } from "../../packages/core/src/tokenizer";

/** Where the reference scenarios live: `scenarios/` at the repository root. */
export const SCENARIOS_DIR = join(import.meta.dir, "..", "..", "scenarios");

type Value = string | number | boolean | null;

/** One example of a scenario, ready for every engine. */
export interface PeerCase {
  scenario: string;
  request: CallRequest;
  specs: ToolSpec[];
  /** The expected call; every parameter of the tool in order, null where the call leaves it out. */
  call: { name: string; args: Record<string, Value> };
}

/** The first example of every scenario (values the query does not fix filled in by type). */
export function loadPeerCases(dir = SCENARIOS_DIR): PeerCase[] {
  if (!existsSync(dir)) throw new Error(`bench:peers needs the reference scenarios at ${dir}`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(dir, file), "utf8"));
      const example = data.examples[0];
      const specs = normalizeTools(data.tools);
      const tool = specs.find((t) => t.name === example.expected.function);
      if (!tool) throw new Error(`${file}: expected function ${example.expected.function} is not a tool`);
      const args: Record<string, Value> = {};
      for (const p of tool.parameters) {
        const given = example.expected.args?.[p.name];
        args[p.name] =
          given !== undefined
            ? given
            : !p.required
              ? null
              : p.enum
                ? p.enum[0]
                : p.type === "string"
                  ? "ok"
                  : p.type === "boolean"
                    ? true
                    : 1;
      }
      return {
        scenario: file.replace(/\.json$/, ""),
        request: {
          query: example.query,
          tools: data.tools,
          environment: example.environment,
          history: example.history,
          system: data.system,
        },
        specs,
        call: { name: tool.name, args },
      };
    });
}

/** The /v2 prompt's token ids and how many of them the system prefix covers. */
export function promptOf(c: PeerCase, tokenizer: RtoolTokenizer): { ids: number[]; prefixLength: number } {
  const ids = tokenizer.encode(buildPrompt("v2", { ...c.request, tools: c.specs }));
  const prefix = tokenizer.encode(systemPrefix("v2", { tools: c.specs, system: c.request.system }));
  let n = 0;
  while (n < prefix.length && n < ids.length && prefix[n] === ids[n]) n++;
  return { ids, prefixLength: n };
}

/** rtool's head scripts for the expected call (for `TeacherForcedRuntime`). */
export function headScripts(c: PeerCase, tokenizer: RtoolTokenizer): HeadScript[] {
  const names = headNames(maxParameterCount(c.specs));
  const values = Object.values(c.call.args);
  return names.map((name, i) => {
    const text =
      name === "function"
        ? `${c.call.name}${headCloseTag(name)}`
        : values[i - 1] === null || values[i - 1] === undefined
          ? NULL_MARKER
          : `${values[i - 1]}${headCloseTag(name)}`;
    return { tagIds: tokenizer.encode(headTag(name)), continuation: tokenizer.encode(text) };
  });
}

/** The call as the peers write it: `{"name":…,"arguments":{…}}`, every parameter present (null when unused). */
export function callJson(c: PeerCase): string {
  return JSON.stringify({ name: c.call.name, arguments: c.call.args });
}

/** Tokens of {@link callJson}; the peers are done when the last of them is produced. */
export function callJsonIds(c: PeerCase, tokenizer: RtoolTokenizer): number[] {
  return tokenizer.encode(callJson(c));
}

/** JSON schema of a call to any of the tools (OpenAI strict style: all keys present, optional ones nullable). */
export function callSchema(specs: ToolSpec[]): Record<string, unknown> {
  const alternatives = specs.map((tool) => ({
    type: "object",
    properties: {
      name: { const: tool.name },
      arguments: {
        type: "object",
        properties: Object.fromEntries(
          tool.parameters.map((p) => {
            const base: Record<string, unknown> = p.enum ? { enum: p.enum } : { type: p.type };
            return [p.name, p.required ? base : { oneOf: [base, { type: "null" }] }];
          }),
        ),
        required: tool.parameters.map((p) => p.name),
      },
    },
    required: ["name", "arguments"],
  }));
  return alternatives.length === 1 ? alternatives[0] : { oneOf: alternatives };
}

/** The end-of-turn marker peers may emit after the call. */
export const PEER_END = END_OF_TURN;
