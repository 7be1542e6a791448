/**
 * A provider's fixed-window request limit as simulators enforce it: each request counts in the current window,
 * and the ones over `limit` are refused until the window ends. `take` counts one request.
 */
export function fixedWindow(clock: { now(): number }, limit: number, windowMs: number) {
  let start = clock.now();
  let used = 0;
  return {
    take() {
      const now = clock.now();
      if (now - start >= windowMs) {
        start = now;
        used = 0;
      }
      used += 1;
      return {
        over: used > limit,
        limit,
        remaining: Math.max(0, limit - used),
        /** Milliseconds until the window ends. */
        resetInMs: start + windowMs - now,
        /** When the window ends (epoch milliseconds). */
        resetAt: start + windowMs,
      };
    },
  };
}
