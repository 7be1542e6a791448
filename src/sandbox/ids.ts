/**
 * What a restart of Omniport keeps of the sandbox (issue 30, row 4), chosen and documented in README.md
 * ("Try it at once with the sandbox"):
 *
 * - The accounts live in memory and are seeded anew at each start with the same demo records under the same
 *   ids: the seed is deterministic, so a seeded id always names the same ticket, user or deal.
 * - Everything made after seeding (a client's write, the passthrough, the sandbox's own changes) gets ids from
 *   a base of its own start. Bases grow with the time of the start, so an id of an earlier start is never
 *   handed out again, for another object or the same (a restart never overwrites a stored record).
 * - The first sync after a start is a full one: it marks what the earlier start made deleted (it is gone
 *   with the memory it lived in), and writes to it answer the provider's 404.
 *
 * Chosen over keeping the accounts in the embedded data directory: the sandbox also runs on PostgreSQL (with
 * OMNIPORT_SANDBOX=true), where the data directory may be missing or shared, and a demo account that resets
 * to its seed keeps the README's walkthrough true for every newcomer.
 */
const EPOCH = Date.UTC(2026, 0, 1);
/**
 * Ids each millisecond between two starts reserves for the first: a start would have to hand out 64,000 ids a
 * second all its life to reach the next start's base.
 */
const IDS_PER_MS = 64;
/** Above every seeded id (the simulators' seeds stay under 100,000,000). */
const FLOOR = 1_000_000_000;

/** The first id of what a start begins at `at` (ms) makes. */
export function idBaseOfStart(at: number = Date.now()): number {
  return FLOOR + Math.max(0, at - EPOCH) * IDS_PER_MS;
}
