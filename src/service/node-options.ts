/**
 * Node options the container runs agent-relay with (Dockerfile `ENV NODE_OPTIONS`), and that
 * the benchmarks use for the compiled runner, so the figures are the deployment's.
 *
 * `--max-semi-space-size=2` (MiB; V8's default is 16 on 64-bit): a smaller young generation.
 * The relay's steady work (tracker cycles, notifications) makes short-lived garbage at a
 * few MB/s; with the default, resident memory climbs by tens of MB between full collections.
 * With 2 MiB, scavenges are more frequent but each is short, and the resident peak with many
 * tracked threads stays lower. The price is some CPU under load (more collections per
 * mention). Kept at 2 MiB for the footprint target (the figures are in docs/performance.md);
 * a deployment with memory to spare can raise it (docs/decisions/speed-mechanisms.md).
 */
export const RUNTIME_NODE_OPTIONS = '--max-semi-space-size=2';
