/** Shapes shared by the scenario loader, the example generators and the dataset export. */

/** JSON Schema of one tool parameter, as far as the generator reads it. */
export interface ParamSchema {
  type: "string" | "number" | "integer" | "boolean";
  description?: string;
  enum?: (string | number)[];
}

/** An OpenAI-style function tool; `argI` is the I-th key of `parameters.properties`. */
export interface ToolSpec {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters: { type: "object"; properties: Record<string, ParamSchema>; required?: string[] };
  };
}

export type Lang = "en" | "zh";
export type PromptFormat = "v1" | "v2";
export type ArgValue = string | number | boolean;

/** The call the model must produce: a tool name and the arguments fixed by the query. */
export interface TargetCall {
  function: string;
  args: Record<string, ArgValue>;
}

/** One generated request with its target call, before prompt building. */
export interface Example {
  scenario: string;
  lang: Lang;
  tools: ToolSpec[];
  /** The domain system prompt (used by v2; v1 has its own fixed system). */
  system: string;
  query: string;
  environment?: string[];
  history: string[];
  call: TargetCall;
}

/** A reference scenario file from the shared scenarios folder. */
export interface ScenarioFile {
  /** File stem, e.g. `robotic_arm`. */
  id: string;
  title: string;
  system: string;
  tools: ToolSpec[];
  examples: {
    query: string;
    environment?: string[];
    history?: string[];
    expected: TargetCall;
  }[];
}

/** Which split a generator is drawing for; held-out uses reserved phrasings. */
/**
 * `heldout`: new values and reserved templates; `families`: like `heldout`, every request wrapped
 * in a phrasing family (`frames.ts` HELDOUT_FRAMES) the generator never emits for training.
 */
export type Split = "train" | "heldout" | "families";
