/**
 * Reads a paged source one item ahead: the next item (a provider page) is requested as soon as the current
 * one is handed over, so the provider call (and its pacing wait) overlaps with storing the current page.
 * Never more than one item is held beyond the one being consumed, so memory stays bounded by two pages.
 * A failure of the prefetch surfaces when it is awaited, i.e. after the current item has been consumed, in
 * the order a plain loop would see it. When the consumer stops early the source is closed once its
 * in-flight request has settled (an async generator runs one step at a time).
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let pending = it.next();
  let finished = false;
  try {
    for (;;) {
      const step = await pending;
      if (step.done) {
        finished = true;
        return;
      }
      pending = it.next();
      pending.catch(() => {}); // awaited on the next turn; never an unhandled rejection if the consumer stops
      yield step.value;
    }
  } catch (err) {
    finished = true; // a source that threw is closed already
    throw err;
  } finally {
    if (!finished) {
      await pending.catch(() => undefined);
      await it.return?.();
    }
  }
}
