/**
 * Arrays filled for each forward pass (a merged past, a mask, a view's past laid out for the
 * session) and reused for the next: the pass only reads them, and fresh memory costs more to
 * write than the copy itself (page faults, and zeroing). Arrays grow to the largest pass seen; a
 * pass gets views of the size it needs.
 */
export class PassBuffers {
  private readonly arrays = new Map<string, Float32Array>();

  /** A view of `floats` floats of the array named `slot` (contents left from an earlier pass). */
  take(slot: string, floats: number): Float32Array {
    let array = this.arrays.get(slot);
    if (!array || array.length < floats) {
      array = new Float32Array(Math.max(floats, Math.ceil((array?.length ?? 0) * 1.25)));
      this.arrays.set(slot, array);
    }
    return array.subarray(0, floats);
  }
}
