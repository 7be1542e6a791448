// Tests that spawn bin/omniport.js run the production build: build it once here, not in each child at once.
// @ts-expect-error: a plain ES module without types
import { build, isStale } from '../../scripts/build.mjs';

export default async function setup() {
  if (isStale()) await build();
}
