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

/**
 * Maps each item of a paged source to what takes more calls (a page of conversations to their records, each
 * read with its messages), with the next pages started before the current one is done: the next page is
 * requested as soon as the current one comes, and its mapping starts at once, so its calls queue behind the
 * current page's. Without it a sync's calls stop at each page's end, for the last calls' latency and then
 * the next list call's. Results come in the source's order; at most `ahead` mappings run beyond the one
 * awaited, and one page beyond them is read. A failure (of a page or of a mapping) surfaces after every
 * result before it, in the order a plain loop would see it; an early stop lets the started mappings settle.
 */
export async function* mapAhead<T, R>(source: AsyncIterable<T>, map: (item: T) => Promise<R>, ahead = 1): AsyncGenerator<R> {
  const pages = readAhead(source);
  const running: Promise<R>[] = [];
  let sourceFailure: { error: unknown } | undefined;
  let sourceDone = false;
  try {
    for (;;) {
      while (!sourceDone && !sourceFailure && running.length <= ahead) {
        try {
          const step = await pages.next();
          if (step.done) sourceDone = true;
          else {
            const mapped = map(step.value);
            mapped.catch(() => {}); // awaited in its turn; never an unhandled rejection if the consumer stops
            running.push(mapped);
          }
        } catch (error) {
          sourceFailure = { error };
        }
      }
      const next = running.shift();
      if (!next) break;
      yield await next;
    }
    if (sourceFailure) throw sourceFailure.error;
  } finally {
    await Promise.allSettled(running);
    await pages.return(undefined);
  }
}
