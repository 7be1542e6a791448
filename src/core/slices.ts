/** Lets timers and sockets run: promise continuations alone (PGlite answers through them) never give them a turn. */
export const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Background work in bounded slices (issue 32): runs `slice` (which handles at most `size` rows and says how many)
 * until one handles fewer, giving requests a turn between two; the total handled.
 */
export async function inSlices(slice: () => Promise<number>, size: number): Promise<number> {
  let total = 0;
  for (;;) {
    const handled = await slice();
    total += handled;
    if (handled < size) return total;
    await yieldToRequests();
  }
}
