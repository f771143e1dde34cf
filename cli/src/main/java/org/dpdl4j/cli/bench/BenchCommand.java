package org.dpdl4j.cli.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code dpdl4j bench}: speed measurements of every protocol family's hot path, reported as ratios taken in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Speed of a DP-SGD step, of noise generation, of Decor and D-SGD rounds, of the SecRDP accountant, of"
                + " mu^2-SGD rounds, of DP-RECAL iterations,"
                + " of Spark rounds and of verifiable GOPA's proofs.",
                "Each reports ratios measured in one run (interleaved blocks, medians), not bare wall times, except"
                        + " gopa-verify (bytes and milliseconds per party), accountant (seconds of one calibration) and"
                        + " spark-round (its settings timed one after another, with Spark's fixed cost per round). Set"
                        + " OMP_NUM_THREADS=1 on small machines (the launcher does)."},
        subcommands = {DpStepBench.class, NoiseBench.class, DecorRoundBench.class, AccountantBench.class, Mu2RoundBench.class,
                RecalIterationBench.class, SparkRoundBench.class, VerifiableGopaBench.class})
public final class BenchCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: use "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
