/** A seeded PRNG (mulberry32) and an exponential gap, so a run of the bench can be repeated. */
export function createPrng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Exponentially distributed gap with the given mean (a Poisson process's inter-arrival). */
export function exponentialGap(mean: number, random: () => number): number {
  return -mean * Math.log(1 - random());
}
