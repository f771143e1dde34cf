package org.dpdl4j.cli.reproduce;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpdl4j.cli.Converters;
import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.experiments.reproduce.RecalReproduction;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code dpdl4j reproduce recal}: DP-RECAL against its baselines, Table V's shape ({@link RecalReproduction}). */
@Command(name = "recal", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"DP-RECAL against DP-PG-EXTRA and DP-NIDS at equal (epsilon, delta): the distributed Lasso on covtype and"
                + " MNIST.",
                "Over 8 agents, ring and complete graphs; writes results.csv, curves.csv, reference.csv, table.txt and PNGs"
                        + " of the relative error against iterations and messages and of the activations per agent (default"
                        + " results/recal).",
                "Each finished run is journaled as it ends, so that the same command run again after a crash or a kill goes"
                        + " on from there."})
public final class ReproduceRecalCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "A covtype sample, 960 relay iterations, one epsilon (a smoke run, not the result).")
    boolean quick;

    @Option(names = "--epsilons", split = ",", converter = Converters.Positive.class,
            description = "Target epsilons of the private algorithms; default 1,10 (10 with --quick).")
    List<Double> epsilons;

    @Option(names = "--datasets", split = ",", description = "covtype and/or mnist; default both (covtype with --quick).")
    List<String> datasets;

    @Option(names = "--long-run-factor", converter = Converters.PositiveLong.class,
            description = "Non-private RECAL also runs until relative error 1e-10, for at most this many times the relay"
                    + " iterations (4800; 960 with --quick); default 50 (2 with --quick).")
    Long longRunFactor;

    @Mixin
    DataDirOption data;

    @Option(names = "--out", description = "Output directory; default results/recal (runs/recal-quick with --quick).")
    Path out;

    @Option(names = "--accountant", defaultValue = AccountantFactory.TIGHTEST, paramLabel = "A",
            description = "How the private algorithms' noise is calibrated and priced: tightest (default: the exact Gaussian curve"
                    + " of the publications), rdp (Renyi DP alone: the paper's zCDP closed form, as the committed results were"
                    + " made) or additive.")
    String accountant;

    @Option(names = "--feature-norm-bound", paramLabel = "B", description = "DP-RECAL, DP-PG-EXTRA and DP-NIDS take their step"
            + " sizes from this public bound on every record's feature norm (sqrt(54) for covtype's min-max features, 28 for"
            + " MNIST's pixels in [0, 1]) instead of from each agent's data (the paper's choice, which the ledger does not price);"
            + " a record beyond B is refused.")
    Double featureNormBound;

    @Option(names = "--fresh", description = "Run every run again, discarding those an interrupted reproduction finished in"
            + " --out (by default the same command goes on from them).")
    boolean fresh;

    @Override
    public Integer call() throws Exception {
        // a smoke run never writes over the committed results
        Path dir = out != null ? out : quick ? Path.of("runs", "recal-quick") : Path.of("results", "recal");
        if (quick && datasets != null && datasets.contains("mnist")) {
            throw new ParameterException(spec.commandLine(), "--quick runs a covtype sample only, with no MNIST sample: drop"
                    + " mnist from --datasets, or drop --quick to reproduce MNIST");
        }
        RecalReproduction.Settings s = quick ? RecalReproduction.Settings.quick(data.resolve(), dir, accountant)
                : RecalReproduction.Settings.full(data.resolve(), dir, accountant);
        if (epsilons != null || datasets != null || longRunFactor != null) {
            s = new RecalReproduction.Settings(datasets != null ? datasets : s.datasets(), epsilons != null ? epsilons : s.epsilons(),
                    s.delta(), s.zeta(), s.lambdaFraction(), s.relayIterations(),
                    longRunFactor != null ? longRunFactor : s.longRunFactor(), s.covtypeRows(), s.mnistRows(), s.clip(), s.seed(),
                    s.dataDir(), s.out(), s.accountant(), null);
        }
        if (featureNormBound != null) {
            if (!(featureNormBound > 0) || featureNormBound.isInfinite()) {
                throw new ParameterException(spec.commandLine(), "--feature-norm-bound must be a positive finite number, got "
                        + featureNormBound);
            }
            s = s.withFeatureNormBound(featureNormBound);
        }
        return new RecalReproduction(s, fresh).run(spec.commandLine().getOut());
    }
}
