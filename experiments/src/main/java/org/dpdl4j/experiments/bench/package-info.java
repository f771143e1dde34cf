/**
 * {@link PairedTiming}, the benchmark harness: it times two operations interleaved in blocks, after a warm-up that
 * waits for the JIT compilers to settle, and reports median times and their ratio. The benchmarks themselves, what
 * they time and what they print, are the {@code dpdl4j bench} subcommands in {@code org.dpdl4j.cli.bench}.
 */
package org.dpdl4j.experiments.bench;
