import type { Tokenizer } from "../tokenizer/tokenizers-lib";
import type { ExampleGroup } from "./generate";
import { type HeadText, prefixText, promptText, targetHeads } from "./prompt-text";

/** One pre-tokenised query of a group (the trainer's format). */
export interface DatasetItem {
  rest: number[];
  heads: number[][];
  target_from: number[];
  meta: {
    scenario: string;
    lang: string;
    format: string;
    function: string;
    args: Record<string, unknown>;
    heads: string[];
  };
}

/** One JSONL line: a shared system prefix and the queries behind it. */
export interface DatasetGroup {
  prefix: number[];
  items: DatasetItem[];
}

/** Token ids of prefix + rest differ from those of the whole prompt. */
export class TokenSplitError extends Error {
  constructor(
    readonly scenario: string,
    readonly query: string,
  ) {
    super(`${scenario}: ids(prefix)+ids(rest) != ids(prompt) for query ${JSON.stringify(query)}`);
    this.name = "TokenSplitError";
  }
}

/** Memoised `tokenizers` encoding without added BOS/EOS (the prompts carry their own markers). */
export class IdCache {
  private readonly cache = new Map<string, number[]>();
  constructor(readonly tokenizer: Tokenizer) {}

  async ids(text: string): Promise<number[]> {
    const hit = this.cache.get(text);
    if (hit) return hit;
    const enc = await this.tokenizer.encode(text, null, { addSpecialTokens: false });
    const ids = enc.getIds();
    if (this.cache.size < 200_000) this.cache.set(text, ids);
    return ids;
  }

  /** Encodes many texts at once (uncached), for the per-query parts. */
  async batch(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const encs = await this.tokenizer.encodeBatch(texts, { addSpecialTokens: false });
    return encs.map((e) => e.getIds());
  }

  single(token: string): number {
    const id = this.tokenizer.tokenToId(token);
    if (id === null || id === undefined) throw new RangeError(`${token} is not a token`);
    return id;
  }
}

/**
 * Tokenises groups for the trainer. Every head branch is `[tag, ...value ids, stop]` with the
 * loss starting after the tag (`target_from` 1). `checkEvery` > 0 verifies the prefix split
 * on every n-th item (1: all) and throws {@link TokenSplitError} on a mismatch.
 *
 * @example
 * for (const g of groups) lines.push(JSON.stringify(await exportGroup(g, ids, 1)));
 */
export async function exportGroup(
  group: ExampleGroup,
  ids: IdCache,
  checkEvery: number,
  knownOnly = false,
): Promise<DatasetGroup> {
  const prefix = prefixText(group.format, group.tools, group.system);
  const prefixIds = await ids.ids(prefix);
  const prompts = group.items.map((ex) => promptText(group.format, ex));
  const restIds = await ids.batch(prompts.map((p) => p.rest));
  const items: DatasetItem[] = [];
  for (let i = 0; i < group.items.length; i++) {
    const ex = group.items[i]!;
    const p = prompts[i]!;
    if (p.prefix !== prefix) throw new TokenSplitError(ex.scenario, ex.query);
    if (checkEvery > 0 && i % checkEvery === 0) {
      const whole = await ids.ids(p.prefix + p.rest);
      const joined = [...prefixIds, ...restIds[i]!];
      if (whole.length !== joined.length || whole.some((id, k) => id !== joined[k])) {
        throw new TokenSplitError(ex.scenario, ex.query);
      }
    }
    const heads = targetHeads(group.tools, ex.call, knownOnly ? "known" : undefined);
    items.push({
      rest: restIds[i]!,
      heads: await Promise.all(heads.map((h) => headIds(h, ids))),
      target_from: heads.map(() => 1),
      meta: {
        scenario: ex.scenario,
        lang: ex.lang,
        format: group.format,
        function: ex.call.function,
        args: ex.call.args,
        heads: heads.map((h) => h.head),
      },
    });
  }
  return { prefix: prefixIds, items };
}

async function headIds(h: HeadText, ids: IdCache): Promise<number[]> {
  const value = h.value === null ? [] : await ids.ids(h.value);
  return [ids.single(h.tag), ...value, ids.single(h.stop)];
}
