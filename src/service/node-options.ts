/**
 * Node options the container runs agent-relay with (Dockerfile `ENV NODE_OPTIONS`), and that
 * the benchmarks use for the compiled runner, so the figures are the deployment's.
 *
 * `--max-semi-space-size=2` (MiB; V8's default is 16 on 64-bit): a smaller young generation.
 * The relay's steady work (tracker cycles, notifications) makes short-lived garbage at a
 * few MB/s; with the default, resident memory climbs by tens of MB between full collections.
 * With 2 MiB, scavenges are more frequent (each well under a millisecond here) and the peak
 * with 10,000 tracked threads drops from about 210 to about 190 MB (docs/performance.md).
 * The price is CPU under load: at 10 mentions a second the compiled service collected about
 * eight times as often as with 16 MiB and used about a tenth more CPU per mention (8 MiB gave
 * the same CPU as 16). Kept at 2 MiB because the 10,000-thread peak is already at the
 * footprint target's edge; a deployment with memory to spare can raise it.
 */
export const RUNTIME_NODE_OPTIONS = '--max-semi-space-size=2';
