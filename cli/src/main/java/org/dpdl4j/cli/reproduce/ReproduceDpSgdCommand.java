package org.dpdl4j.cli.reproduce;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpdl4j.cli.Converters;
import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.experiments.reproduce.DpSgdReproduction;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code dpdl4j reproduce dp-sgd}: central DP-SGD accuracy against epsilon ({@link DpSgdReproduction}). */
@Command(name = "dp-sgd", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Central DP-SGD test accuracy against epsilon: the MNIST MLP 784-128-10, the MNIST tanh CNN or a9a logistic"
                + " regression.",
                "With the tuning grid, the chosen settings, CSVs and a PNG under --out (default"
                        + " results/central-dp-sgd/<dataset>, <dataset>-cnn with --model cnn, and -quick appended with"
                        + " --quick)."})
public final class ReproduceDpSgdCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dataset", required = true, description = "mnist or a9a.")
    String dataset;

    @Option(names = "--model", defaultValue = "mlp", description = "mnist: mlp (784-128-10, default) or cnn (the end-to-end"
            + " tanh CNN of Papernot et al. and Tramèr & Boneh); a9a: logistic regression (mlp, the default, has no effect"
            + " there; cnn is refused).")
    String model;

    @Option(names = "--epsilons", split = ",", converter = Converters.Positive.class,
            description = "Target epsilons; default 1,2,4,8 (mnist MLP), 1,2,3,8 (mnist CNN), 1 (a9a).")
    List<Double> epsilons;

    @Option(names = "--delta", defaultValue = "1e-5", converter = Converters.Probability.class, description = "delta; default ${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--seeds", defaultValue = "3", converter = Converters.PositiveInt.class,
            description = "Seeds of the final runs; default ${DEFAULT-VALUE}.")
    int seeds;

    @Option(names = "--quick", description = "One grid point and one seed (a smoke run, not the tuned result).")
    boolean quick;

    @Option(names = "--wide-grid", description = "MNIST: add large-batch settings to the grid (relu, batch 2048, 60 epochs, "
            + "lr 2 and 4); they help at larger epsilons and take about twice as long per run.")
    boolean wideGrid;

    @Option(names = "--resume", description = "Reuse the finished runs (tuning points, seeds, baselines) that an earlier"
            + " run left in --out and train only the missing ones; the files are rewritten as an uninterrupted run writes them.")
    boolean resume;

    @Option(names = "--chosen-from", paramLabel = "DIR", description = "Skip tuning: retrain the setting that the earlier"
            + " run in DIR chose for each epsilon (its results.csv), with the noise --accountant calibrates; for"
            + " measuring what a change of accounting or code does to a tuned result. Needs another --out.")
    Path chosenFrom;

    @Option(names = "--accountant", defaultValue = AccountantFactory.TIGHTEST, paramLabel = "A",
            description = "How every private run's noise is calibrated and priced: tightest (default: the smallest valid"
                    + " bound, privacy loss distributions for Poisson sampling), rdp (Renyi DP alone, as the committed"
                    + " results/central-dp-sgd/{mnist,a9a,mnist-cnn} were made) or additive.")
    String accountant;

    @Mixin
    DataDirOption data;

    @Option(names = "--out", description = "Output directory; default results/central-dp-sgd/<dataset> (-cnn appended with"
            + " --model cnn, -quick with --quick).")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (quick && spec.commandLine().getParseResult().hasMatchedOption("--seeds")) {
            throw new ParameterException(spec.commandLine(), "--seeds has no effect with --quick (a smoke run of one grid"
                    + " point and one seed); drop one of them");
        }
        if (quick && wideGrid) {
            throw new ParameterException(spec.commandLine(), "--wide-grid has no effect with --quick (a smoke run of one grid"
                    + " point); drop one of them");
        }
        return new DpSgdReproduction(new DpSgdReproduction.Settings(dataset, model, epsilons, delta, seeds, quick, wideGrid,
                resume, data.resolve(), out, chosenFrom, accountant))
                .run(spec.commandLine().getOut());
    }
}
