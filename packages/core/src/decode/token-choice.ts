/**
 * Picking a head's next token from its logits row: greedy argmax or seeded temperature sampling,
 * restricted to the tokens a constraint allows. The top token is usually allowed, so it is tried
 * first; then the next best few; only then is the allowed set enumerated.
 */

/**
 * How many best tokens are tried one by one, in two widening rounds, before the allowed set is
 * enumerated (which walks the whole vocabulary's text index).
 */
const TRY_TOP = [64, 2048];

/** Index of the largest value (the lowest index among equals). */
export function argmax(row: ArrayLike<number>): number {
  let best = 0;
  let bestValue = row[0];
  for (let i = 1; i < row.length; i++) {
    if (row[i] > bestValue) {
      bestValue = row[i];
      best = i;
    }
  }
  return best;
}

/** Indices of the `k` largest values, largest first (ties: lower index first). */
export function topIndices(row: ArrayLike<number>, k: number): number[] {
  if (k > 64) return topIndicesBySelection(row, k);
  const top: number[] = [];
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (top.length === k && v <= row[top[k - 1]]) continue;
    let at = top.length === k ? k - 1 : top.length;
    while (at > 0 && row[top[at - 1]] < v) {
      if (at < k) top[at] = top[at - 1];
      at--;
    }
    top[at] = i;
  }
  return top;
}

/** {@link topIndices} for large k: the k-th largest value by quickselect, then a sort of the few above it. */
function topIndicesBySelection(row: ArrayLike<number>, k: number): number[] {
  if (k >= row.length)
    return sortedByValue(
      row,
      Array.from({ length: row.length }, (_, i) => i),
    );
  const threshold = kthLargest(Float64Array.from(row), k);
  const above: number[] = [];
  const equal: number[] = [];
  for (let i = 0; i < row.length; i++) {
    if (row[i] > threshold) above.push(i);
    else if (row[i] === threshold) equal.push(i);
  }
  return sortedByValue(row, above.concat(equal.slice(0, k - above.length)));
}

function sortedByValue(row: ArrayLike<number>, ids: number[]): number[] {
  return ids.sort((a, b) => row[b] - row[a] || a - b);
}

/** The k-th largest of `values` (1-based); reorders `values`. */
function kthLargest(values: Float64Array, k: number): number {
  const target = values.length - k; // index of the answer in ascending order
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target];
  }
  return values[target];
}

/** Deterministic uniform [0, 1) generator (mulberry32) for seeded sampling. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Which tokens a head may take next: a test for one token and the enumeration of all of them. */
export interface AllowedTokens {
  allows(id: number): boolean;
  all(): number[];
}

/**
 * Greedy choice: the highest-logit token that `allowed` permits (any token when it is null),
 * or -1 when no token is permitted.
 */
export function chooseGreedy(row: ArrayLike<number>, allowed: AllowedTokens | null): number {
  const best = argmax(row);
  if (!allowed || allowed.allows(best)) return best;
  let tried = 1;
  for (const k of TRY_TOP) {
    const top = topIndices(row, Math.min(k, row.length));
    for (let i = tried; i < top.length; i++) if (allowed.allows(top[i])) return top[i];
    tried = top.length;
  }
  let choice = -1;
  for (const id of allowed.all()) {
    if (choice < 0 || row[id] > row[choice] || (row[id] === row[choice] && id < choice)) choice = id;
  }
  return choice;
}

/**
 * Sampling at `temperature` > 0 from the softmax over the permitted tokens: draws from the whole
 * distribution and retries a few times on a forbidden token, then samples over the allowed set.
 * Returns -1 when no token is permitted.
 */
export function chooseSampled(
  row: ArrayLike<number>,
  temperature: number,
  random: () => number,
  allowed: AllowedTokens | null,
): number {
  const excluded = new Set<number>();
  for (let attempt = 0; attempt < 8; attempt++) {
    const id = sampleFrom(row, null, temperature, random, excluded);
    if (id < 0) return -1;
    if (!allowed || allowed.allows(id)) return id;
    excluded.add(id);
  }
  return sampleFrom(row, allowed!.all(), temperature, random, excluded);
}

/** Samples one of `ids` (every index when null) from softmax(row / temperature), skipping `excluded`. */
function sampleFrom(
  row: ArrayLike<number>,
  ids: readonly number[] | null,
  temperature: number,
  random: () => number,
  excluded: Set<number>,
): number {
  const count = ids ? ids.length : row.length;
  const idAt = (i: number) => (ids ? ids[i] : i);
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) if (!excluded.has(idAt(i)) && row[idAt(i)] > max) max = row[idAt(i)];
  if (max === Number.NEGATIVE_INFINITY) return -1;
  const weight = (i: number) => (excluded.has(idAt(i)) ? 0 : Math.exp((row[idAt(i)] - max) / temperature));
  let total = 0;
  for (let i = 0; i < count; i++) total += weight(i);
  let r = random() * total;
  let last = -1;
  for (let i = 0; i < count; i++) {
    const w = weight(i);
    if (w === 0) continue;
    last = idAt(i);
    r -= w;
    if (r < 0) return last;
  }
  return last;
}
