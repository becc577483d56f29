/**
 * The `X-Rtool-Prefix` value: a stable hash of the system prompt and the tools, the part of the
 * prompt a server's prefix cache keys on. A load balancer routes equal values to the same server
 * so its cache stays warm. 64-bit FNV-1a over the UTF-8 of the JSON, as 16 hex digits: cheap,
 * synchronous and the same in every JavaScript runtime (no `crypto.subtle`, which browsers only
 * offer on secure origins).
 */

const encoder = new TextEncoder();
const FNV_OFFSET_HI = 0xcbf29ce4;
const FNV_OFFSET_LO = 0x84222325;
const TWO_32 = 0x1_0000_0000;

/**
 * 64-bit FNV-1a of `text`'s UTF-8 bytes, as 16 lower-case hex digits.
 *
 * @example
 * fnv1a64("a"); // "af63dc4c8601ec8c"
 */
export function fnv1a64(text: string): string {
  let hi = FNV_OFFSET_HI;
  let lo = FNV_OFFSET_LO;
  for (const byte of encoder.encode(text)) {
    lo = (lo ^ byte) >>> 0;
    // h * 0x100000001b3 = h * 0x1b3 + (h << 40), in two 32-bit halves.
    const low = lo * 0x1b3;
    const carry = Math.floor(low / TWO_32);
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = low >>> 0;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}

const memo = new WeakMap<object, Map<string, string>>();

/**
 * The prefix hash of a system prompt and a tool list. Tool order and key order count (they
 * change the prompt). Memoised per tools array, so a loop that reuses one array pays once.
 *
 * @example
 * ```ts
 * const key = prefixHash("You steer a ship.", tools); // "3f1c0a9e5b7d2468"
 * ```
 */
export function prefixHash(system: string | null | undefined, tools: readonly unknown[]): string {
  const systemKey = system ?? "\u0000none";
  let bySystem = memo.get(tools);
  const known = bySystem?.get(systemKey);
  if (known !== undefined) return known;
  const hash = fnv1a64(JSON.stringify([system ?? null, tools]));
  if (!bySystem) {
    bySystem = new Map();
    memo.set(tools, bySystem);
  }
  bySystem.set(systemKey, hash);
  return hash;
}
