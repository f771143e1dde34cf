/**
 * The {@code dpdl4j bench} subcommands, grouped by {@link BenchCommand}: {@code dp-step} (a DP-SGD step against a
 * plain DL4J fit step), {@code noise} (secure and seeded Gaussian noise against {@code java.util.Random}),
 * {@code decor-round} (a Decor round against a D-SGD round, and scaling in n), {@code accountant} (the Decor
 * accountant and a noise-pair calibration), {@code mu2-round} (a mu^2-SGD round against a plain SGD round),
 * {@code recal} (DP-RECAL iterations, and one relay iteration against a DP-PG-EXTRA iteration) and
 * {@code gopa-verify} (verifiable GOPA's proof bytes, prove and verify times per party against its neighbours). The
 * timing harness they share, {@code org.dpdl4j.experiments.bench.PairedTiming}, is in the experiments module, and
 * the code being timed is the library's.
 */
package org.dpdl4j.cli.bench;
