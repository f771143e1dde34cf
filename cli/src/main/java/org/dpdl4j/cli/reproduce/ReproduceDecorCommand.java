package org.dpdl4j.cli.reproduce;

import org.dpdl4j.privacy.noise.NoiseKind;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpdl4j.cli.Converters;
import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.cli.EngineOption;
import org.dpdl4j.experiments.reproduce.DecorReproduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dpdl4j reproduce decor}: Decor's Figure 1 ({@link DecorReproduction}). */
@Command(name = "decor", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reproduce Decor's Figure 1 on one task: CDP, Decor and LDP over an epsilon grid, topologies and seeds.",
                "Decor and LDP run on the complete graph, the 4x4 torus and the ring, CDP on the complete graph. Writes"
                        + " results.csv, summary.md (beside the paper's numbers), figure.png, noise-pair-tuning.csv and, with"
                        + " --tune-lr, lr-tuning.csv to --out (default results/decor/<task>, <task>-reference-epsilon with"
                        + " --epsilon-mode reference).",
                "Uses seeded noise unless --noise secure: reproducible, so that the committed results can be rerun to the"
                        + " same numbers, but not secure (anyone who knows the seed can remove it); train and the library"
                        + " use secure noise by default."})
public final class ReproduceDecorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--task", required = true, description = "synthetic, a9a or mnist.")
    String task;

    @Option(names = "--epsilons", split = ",", converter = Converters.Positive.class, description = "Target epsilons; default: the paper's plotted grid of the task.")
    List<Double> epsilons;

    @Option(names = "--epsilon-mode", defaultValue = "proper",
            description = "proper: calibrate to an (epsilon, delta)-DP guarantee (default); reference: calibrate to the Decor code's "
                    + "example-level value (MNIST figure only; NOT a DP guarantee; the proper epsilon of each run is reported beside it).")
    String epsilonMode;

    @Option(names = "--topologies", split = ",", defaultValue = "complete,torus,ring", description = "Topologies; default ${DEFAULT-VALUE}.")
    List<String> topologies;

    @Option(names = "--seeds", converter = Converters.PositiveInt.class, description = "Number of seeds; default: 5 synthetic, 4 a9a, 3 mnist.")
    Integer seeds;

    @Option(names = "--tune-pairs", converter = Converters.PositiveInt.class, description = "Decor noise pairs tried on a separate tuning seed (the best is"
            + " kept); default: 6 synthetic, 1 (the smallest sigma_cdp, as the reference scripts) for a9a and mnist.")
    Integer tunePairs;

    @Option(names = "--tune-lr", split = ",", converter = Converters.Positive.class, description = "Learning-rate factors tried for every setting and"
            + " epsilon on the separate tuning seed, times the table's eta_0 (the best is kept; lr-tuning.csv; a resumed run keeps an"
            + " earlier choice); default: none, the table's rates as they are.")
    List<Double> tuneLr;

    @Option(names = "--rounds", converter = Converters.PositiveLong.class, description = "Override the paper's number of rounds (for quick looks;"
            + " results are then not comparable).")
    Long rounds;

    @Option(names = "--delta", defaultValue = "1e-5", converter = Converters.Probability.class, description = "delta; default ${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--noise", defaultValue = "seeded", converter = Converters.NoiseKindConverter.class, description = ReproduceCommand.NOISE_HELP)
    NoiseKind noise;

    @Mixin
    DataDirOption data;

    @Mixin
    EngineOption engine;

    @Option(names = "--out", description = "Output directory; default results/decor/<task> (<task>-reference-epsilon with"
            + " --epsilon-mode reference; runs/decor-<task>-quick with --quick).")
    Path out;

    @Option(names = "--accountant", defaultValue = "tightest", paramLabel = "A",
            description = "How the noise is calibrated and the runs priced: tightest (default: the exact Gaussian curve of"
                    + " the noise for the user-level tasks, the privacy loss distribution of the subsampled rounds for MNIST),"
                    + " rdp (Renyi DP alone, as the committed results were made) or additive.")
    String accountant;

    @Option(names = "--fresh", description = "Discard the results already in --out instead of resuming after the last finished run.")
    boolean fresh;

    @Option(names = "--quick", description = "A small grid for a first look (about two minutes on the synthetic task): epsilon 5, 10, 20"
            + " on synthetic (the task's own grid on a9a and mnist), torus and ring, one seed, 3 Decor pairs tried. Not the"
            + " paper's grid.")
    boolean quick;

    @Override
    public Integer call() throws Exception {
        var parsed = spec.commandLine().getParseResult();
        return new DecorReproduction(new DecorReproduction.Settings(task, epsilons, epsilonMode, topologies,
                parsed.hasMatchedOption("--topologies"), seeds, tunePairs, tuneLr, rounds, delta, parsed.hasMatchedOption("--delta"),
                noise, data.resolve(), out, fresh, quick, engine.settings(), accountant)).run(spec.commandLine().getOut());
    }
}
