import { describe, expect, test } from "bun:test";
import { booleansSaidFor, numbersSaidFor, saidValues, textsSaidFor } from "./said-values";

describe("numbers the order gives a parameter by name", () => {
  const order = "go ahead and call send_gate with amount of 6878 and x 116, thanks";

  test("after the whole name or a part of it, across a short connector, as written", () => {
    expect(numbersSaidFor("x", order)).toEqual(["116"]);
    expect(numbersSaidFor("amount_value", order)).toEqual(["6878"]);
    expect(numbersSaidFor("x", "闸门，发送，数额为188，x=-427.3")).toEqual(["-427.3"]);
    expect(numbersSaidFor("duration", "delete the valve, duration: 63.")).toEqual(["63"]);
    expect(numbersSaidFor("speed", "set the speed to 4 please")).toEqual(["4"]);
  });

  test("not inside other words, not a percentage, not far from the name", () => {
    expect(numbersSaidFor("x", "box 12")).toEqual([]);
    expect(numbersSaidFor("intensity", "be joyful with intensity 70% now")).toEqual([]);
    expect(numbersSaidFor("force", "force the door open, then wait 30 s")).toEqual([]);
    expect(numbersSaidFor("x", order.toUpperCase())).toEqual(["116"]);
  });

  test("every parameter's values, each with share 1", () => {
    expect(Object.fromEntries(saidValues(["x", "amount_value"], order))).toEqual({ "116": 1, "6878": 1 });
    expect(saidValues(["y"], order).size).toBe(0);
    // `no` is also the word after `urgent`: a boolean head's constraint keeps it out
    expect(Object.fromEntries(saidValues(["urgent", "target"], 'urgent: no, target "Node-7"'))).toEqual({
      false: 1,
      no: 1,
      "Node-7": 1,
    });
  });
});

describe("booleans and texts the order gives a parameter by name", () => {
  test("a yes/no word after the name, or the name after a negation", () => {
    expect(booleansSaidFor("urgent", "brighten force 101.7, urgent: no, thanks")).toEqual(["false"]);
    expect(booleansSaidFor("enabled_setting", "turn the ticket, with enabled off")).toEqual(["false"]);
    expect(booleansSaidFor("enabled", "run defend_curtain enabled true in tier2")).toEqual(["true"]);
    expect(booleansSaidFor("loop", "force=5.6 and no loop")).toEqual(["false"]);
    // the function head's negation words, one list for both nudges
    expect(booleansSaidFor("loop", "play it but don't loop")).toEqual(["false"]);
    expect(booleansSaidFor("loop", "never loop it")).toEqual(["false"]);
    expect(booleansSaidFor("urgent", "it is urgent now")).toEqual([]);
  });

  test("a quoted text after the name, else the word after it; not a number or a filler word", () => {
    expect(textsSaidFor("target", 'close the turret target "Sector 9", distance 4772')).toEqual(["Sector 9"]);
    expect(textsSaidFor("target", "close the turret target set to Gate 3 to 2542m")).toEqual(["Gate"]);
    expect(textsSaidFor("song", "satellite: move song: Blue Moon direction left")).toEqual(["Blue"]);
    expect(textsSaidFor("target", "use the saved target")).toEqual([]);
    expect(textsSaidFor("target", "target the red car")).toEqual([]);
    expect(textsSaidFor("label", "label 42")).toEqual([]);
  });
});
