import { describe, expect, test } from "bun:test";
import { fnv1a64, prefixHash } from "./prefix-hash";

/** The textbook definition over BigInt, to check the two-halves arithmetic. */
function referenceFnv(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

describe("fnv1a64", () => {
  test("published test vectors", () => {
    expect(fnv1a64("")).toBe("cbf29ce484222325");
    expect(fnv1a64("a")).toBe("af63dc4c8601ec8c");
    expect(fnv1a64("foobar")).toBe("85944171f73967e8");
  });

  test("equals the BigInt definition on varied text", () => {
    const texts = ["move(up)", "舰船向左", '{"type":"function"}', "x".repeat(1000), "\u0000\uffff🙂"];
    for (const text of texts) expect(fnv1a64(text)).toBe(referenceFnv(text));
  });
});

describe("prefixHash", () => {
  const tools = [{ type: "function", function: { name: "move" } }];

  test("stable for equal input, different for a different system, tool list or tool order", () => {
    const a = prefixHash("Steer.", tools);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(prefixHash("Steer.", structuredClone(tools))).toBe(a);
    expect(prefixHash("Fly.", tools)).not.toBe(a);
    expect(prefixHash(undefined, tools)).not.toBe(a);
    const two = [...tools, { type: "function", function: { name: "fire" } }];
    expect(prefixHash("Steer.", two)).not.toBe(prefixHash("Steer.", [...two].reverse()));
  });

  test("no system and an empty system differ (they are different prompts)", () => {
    expect(prefixHash("", tools)).not.toBe(prefixHash(null, tools));
  });
});
