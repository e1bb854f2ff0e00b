// The settings of the property tests in test/properties (issue 17): a fixed seed, so a failure
// reproduces, and a number of runs that CI keeps small and the long run (scripts/properties.mjs,
// `npm run properties`) raises: FC_RUNS sets the runs, FC_SEED the seed.

/** The runs of a property: FC_RUNS, or `ci` when it is not set. */
export function runs(ci: number): number {
  const n = Number(process.env.FC_RUNS);
  return Number.isSafeInteger(n) && n > 0 ? n : ci;
}

/** The seed of every property: FC_SEED, or 1738. */
export const SEED =
  Number.isSafeInteger(Number(process.env.FC_SEED)) && process.env.FC_SEED ? Number(process.env.FC_SEED) : 1738;
