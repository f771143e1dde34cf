package org.dpdl4j.cli.reproduce;

import org.dpdl4j.privacy.noise.NoiseKind;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpdl4j.cli.Converters;
import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.cli.EngineOption;
import org.dpdl4j.experiments.reproduce.Mu2Reproduction;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dpdl4j reproduce mu2}: Tables 1-2 of DP-mu^2-FL ({@link Mu2Reproduction}). */
@Command(name = "mu2", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reproduce Tables 1-2 of DP-mu^2-FL (MNIST softmax regression, untrusted and trusted server).",
                "Each configuration trains from scratch with one pass over the data; the whole grid takes a few minutes per",
                "configuration with M = 1 (60000 rounds) on a small machine."})
public final class Mu2ReproduceCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", defaultValue = "results/mu2", paramLabel = "DIR", description = "Output directory; default ${DEFAULT-VALUE}.")
    private Path out;

    @Mixin
    DataDirOption data;

    @Option(names = "--machines", split = ",", defaultValue = "1,10,100", paramLabel = "M", converter = Converters.PositiveInt.class,
            description = "Machine counts; default ${DEFAULT-VALUE}.")
    private List<Integer> machines;

    @Option(names = "--epsilons", split = ",", defaultValue = "4,8,16", paramLabel = "EPS", converter = Converters.Positive.class,
            description = "Privacy levels; default ${DEFAULT-VALUE}.")
    private List<Double> epsilons;

    @Option(names = "--trust", split = ",", defaultValue = "untrusted,trusted", paramLabel = "T",
            description = "Server trust models; default ${DEFAULT-VALUE}.")
    private List<String> trust;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed of the split and of the seeded noise of the first "
            + "run; default ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--seeds", defaultValue = "5", paramLabel = "N", converter = Converters.PositiveInt.class,
            description = "Runs per configuration, with seeds S, S+1, ...; the tables and checks use their mean (the accuracy of these"
                    + " tiny-signal models moves by several points between seeds); default ${DEFAULT-VALUE}.")
    private int seeds;

    @Option(names = "--delta", defaultValue = "1e-5", paramLabel = "DELTA", converter = Converters.Probability.class,
            description = "delta (not given by the paper); default ${DEFAULT-VALUE}.")
    private double delta;

    @Option(names = "--diameter", defaultValue = "0.1", paramLabel = "D", converter = Converters.Positive.class,
            description = "Diameter of the parameter ball (inferred by the spec); default ${DEFAULT-VALUE}.")
    private double diameter;

    @Option(names = "--noise", defaultValue = "seeded", converter = Converters.NoiseKindConverter.class, paramLabel = "SOURCE",
            description = ReproduceCommand.NOISE_HELP)
    private NoiseKind noise;

    @Option(names = "--examples", paramLabel = "N", converter = Converters.PositiveInt.class,
            description = "Use only the first N training examples (quick checks); default: all 60000.")
    private Integer examples;

    @Option(names = "--accountant", defaultValue = AccountantFactory.TIGHTEST, paramLabel = "A",
            description = "How the noise is calibrated and the runs priced: tightest (default: the exact Gaussian curve of the"
                    + " rounds), rdp (Renyi DP alone: the papers' zCDP closed form, as the committed results were made) or additive.")
    String accountant;

    @Option(names = "--fresh", description = "Discard the runs already in --out instead of resuming after the last finished one.")
    private boolean fresh;

    @Option(names = "--reference", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run non-private mu^2-SGD with M = 1 (the floor of this constrained setup); default ${DEFAULT-VALUE}.")
    private boolean reference;

    @Mixin
    EngineOption engine;

    @Override
    public Integer call() throws Exception {
        return new Mu2Reproduction(new Mu2Reproduction.Settings(out, data.resolve(), machines, epsilons, trust, seed, seeds, delta,
                diameter, noise, examples, fresh, reference, spec.commandLine().getParseResult().originalArgs(), engine.settings(),
                accountant))
                .run(spec.commandLine().getOut());
    }
}
