import { describe, expect, test } from "bun:test";
import { numberConstraint } from "../constraints/numeric";
import { choiceOf } from "../testing/choices";
import type { Branch } from "./branch";
import { weakerClaim, withoutValue } from "./value-claims";

const x = { plan: { name: "arg1" } } as Branch;
const amount = { plan: { name: "arg2" } } as Branch;

describe("two arg heads with one value", () => {
  test("the one whose parameter the order names before the value keeps it, else the typed one", () => {
    const said = { branch: amount, saidByName: true, typed: true };
    expect(weakerClaim({ branch: x, saidByName: false, typed: true }, said)).toBe(x);
    // a name said outweighs a type: "target: 209" beside a distance
    expect(weakerClaim({ branch: x, saidByName: true, typed: false }, { ...said, saidByName: false })).toBe(
      amount,
    );
    expect(weakerClaim({ branch: x, saidByName: false, typed: false }, { ...said, saidByName: false })).toBe(
      x,
    );
    // equal claims: both keep it
    expect(
      weakerClaim({ branch: x, saidByName: false, typed: true }, { ...said, saidByName: false }),
    ).toBeNull();
  });

  test("the head giving the value up may still write values that begin like it", () => {
    const number = withoutValue(numberConstraint(false), "5412");
    expect(number.isComplete("5412")).toBe(false);
    expect(number.isComplete(" 5412")).toBe(false);
    expect(number.accepts("5412")).toBe(true);
    expect(number.isComplete("54120")).toBe(true);
    expect(withoutValue(number, "54120").excludedValues).toEqual(["5412", "54120"]);
    // a choice left with the given-up value alone forces nothing
    const choice = withoutValue(choiceOf(["up", "down"]), "down");
    expect(choice.forcedContinuation("d")).toBeNull();
    expect(choice.forcedContinuation("u")).toBe("p");
  });
});
