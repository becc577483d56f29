import { describe, expect, test } from "bun:test";
import { nameParts, orderOf, saidNameTokens, saidShares } from "./name-parts";
import { VocabIndex } from "./token-vocab";

// A vocabulary of whole texts: id i is TEXTS[i].
const TEXTS = ["send", "_gate", "_therm", "ostat", " send", "wait", "fl", "ap", " flap", "x"];
const index = new VocabIndex({
  size: TEXTS.length,
  tokenText: (id: number) => TEXTS[id]!,
  decode: (ids: readonly number[]) => ids.map((id) => TEXTS[id]).join(""),
  encode: () => [],
});
const id = (text: string) => TEXTS.indexOf(text);

describe("tool names said in the command", () => {
  test("a name's parts: split at separators and case changes, short parts left out", () => {
    expect(nameParts("send_thermostat")).toEqual(["send", "thermostat"]);
    expect(nameParts("lookAt")).toEqual(["look"]);
    expect(nameParts("move_to")).toEqual(["move"]);
    expect(nameParts("set-stance2")).toEqual(["set", "stance"]);
  });

  test("the share of a name's parts the command says as words, in their inflected forms too", () => {
    const names = ["send_gate", "send_thermostat", "flap", "wait", "use_skill"];
    const counts = (command: string) => Object.fromEntries(saidShares(names, command));
    expect(counts('time to send the thermostat song "Imagine"')).toMatchObject({
      send_gate: 0.5,
      send_thermostat: 1,
      wait: 0,
    });
    expect(counts("call send_gate, x 116")).toMatchObject({ send_gate: 1, send_thermostat: 0.5 });
    expect(counts("keep flapping!")).toMatchObject({ flap: 1, wait: 0 });
    expect(counts("Flaps now")).toMatchObject({ flap: 1 });
    expect(counts("don't flap, just wait")).toMatchObject({ flap: 0, wait: 1 });
    expect(counts("Amiya, using her skill")).toMatchObject({ use_skill: 1 });
    expect(counts("Amiya, your skill")).toMatchObject({ use_skill: 0.5 });
    // an enum's values the same way
    expect(Object.fromEntries(saidShares(["shake_head", "nod"], "shake your head"))).toEqual({
      shake_head: 1,
      nod: 0,
    });
    // letters inside a longer word are not the word
    expect(counts("the gateway")).toMatchObject({ send_gate: 0 });
  });

  test("each next token maps to the best share among the names it leads to", () => {
    const names = ["send_gate", "send_thermostat", "flap", "wait"];
    const shares = saidShares(names, "send the thermostat song");
    const first = saidNameTokens("", shares, index);
    // `send` leads to send_thermostat (all said), a leading space is allowed before a value
    expect(first.get(id("send"))).toBe(1);
    expect(first.get(id(" send"))).toBe(1);
    for (const other of ["wait", "fl", "_gate", "x"]) expect(first.has(id(other))).toBe(false);
    // at the fork, towards the name said more
    const fork = saidNameTokens("send", shares, index);
    expect(fork.get(id("_therm"))).toBe(1);
    expect(fork.get(id("_gate"))).toBe(0.5);
    // the rest of a name after a leading space
    const flap = saidShares(names, "flap!");
    expect(saidNameTokens("", flap, index).get(id(" flap"))).toBe(1);
    expect(saidNameTokens(" fl", flap, index).get(id("ap"))).toBe(1);
  });

  test("the order is the command's last line, under the environment's", () => {
    expect(orderOf("Nightingale's skill is ready\nmove Yato to south\n")).toBe("move Yato to south");
    expect(orderOf("flap")).toBe("flap");
  });

  test("names not said at all lead to no tokens", () => {
    const shares = saidShares(["wait", "send_gate"], "hold on");
    expect(saidNameTokens("", shares, index).size).toBe(0);
  });
});
