import { describe, expect, test } from "bun:test";
import { continuesUtf8, unfinishedCharacter } from "./utf8-bytes";

const b = (...bytes: number[]) => new Uint8Array(bytes);

describe("UTF-8 at token boundaries", () => {
  test("the unfinished character at the end of a byte string", () => {
    expect([...unfinishedCharacter(b(0x41, 0xe6, 0xac))]).toEqual([0xe6, 0xac]);
    expect([...unfinishedCharacter(b(0xe6))]).toEqual([0xe6]);
    expect([...unfinishedCharacter(b(0xf0, 0x9f, 0x98))]).toEqual([0xf0, 0x9f, 0x98]);
    expect([...unfinishedCharacter(b(0xe6, 0xac, 0xa7))]).toEqual([]);
    expect([...unfinishedCharacter(b(0x41))]).toEqual([]);
    expect([...unfinishedCharacter(b())]).toEqual([]);
  });

  test("a begun character must be finished before anything else", () => {
    // 欧 is E6 AC A7
    expect(continuesUtf8(b(0xe6, 0xac), b(0xa7))).toBe(true);
    expect(continuesUtf8(b(0xe6, 0xac), b(0xa7, 0x41))).toBe(true);
    expect(continuesUtf8(b(0xe6), b(0xac))).toBe(true); // still unfinished, allowed
    expect(continuesUtf8(b(0xe6, 0xac), b(0x3c, 0x2f))).toBe(false); // a marker ("</") mid-character
    expect(continuesUtf8(b(0xe6, 0xac), b(0xe6))).toBe(false); // a new character before this one ends
  });

  test("without a begun character, a token may not start mid-character", () => {
    expect(continuesUtf8(b(), b(0x41, 0x42))).toBe(true);
    expect(continuesUtf8(b(), b(0xe6, 0xac))).toBe(true); // begins one, leaves it for the next token
    expect(continuesUtf8(b(), b(0xa7))).toBe(false);
    expect(continuesUtf8(b(), b(0xc0, 0x80))).toBe(false); // overlong
    expect(continuesUtf8(b(), b())).toBe(true);
  });
});
