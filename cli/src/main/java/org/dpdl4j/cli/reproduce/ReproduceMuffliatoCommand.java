package org.dpdl4j.cli.reproduce;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpdl4j.cli.Converters;
import org.dpdl4j.experiments.reproduce.MuffliatoReproduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dpdl4j reproduce muffliato}: pairwise epsilon against distance and private averaging ({@link MuffliatoReproduction}). */
@Command(name = "muffliato", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reproduce the shapes of Muffliato (Cyffers et al. 2022) for private gossip averaging.",
                "Writes pairwise epsilon against graph distance, and the error at equal epsilon of local-DP noise, Muffliato",
                "calibrated to the mean pairwise epsilon, and a trusted curator. About a minute with the defaults."})
public final class ReproduceMuffliatoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", defaultValue = "results/muffliato", paramLabel = "DIR", description = "Output directory; default ${DEFAULT-VALUE}.")
    private Path out;

    @Option(names = "--topology", defaultValue = "regular:4", paramLabel = "T", description = "Graph; default ${DEFAULT-VALUE}.")
    private String topology;

    @Option(names = "--nodes", defaultValue = "1000", paramLabel = "N", description = "Nodes (RxC for a torus); default ${DEFAULT-VALUE}.")
    private String nodes;

    @Option(names = "--gossip-steps", defaultValue = "10", paramLabel = "T", converter = Converters.PositiveInt.class,
            description = "Gossip steps; default ${DEFAULT-VALUE}.")
    private int steps;

    @Option(names = "--dimension", defaultValue = "10", paramLabel = "D", converter = Converters.PositiveInt.class,
            description = "Dimension of each node's value; default ${DEFAULT-VALUE}.")
    private int dimension;

    @Option(names = "--epsilons", split = ",", defaultValue = "0.5,1,2,4,8", paramLabel = "EPS", converter = Converters.Positive.class,
            description = "Targets of the utility comparison; default ${DEFAULT-VALUE}.")
    private List<Double> epsilons;

    @Option(names = "--distance-epsilon", defaultValue = "4", paramLabel = "EPS", converter = Converters.Positive.class,
            description = "Local-DP epsilon whose noise the distance profile uses; default ${DEFAULT-VALUE}.")
    private double distanceEpsilon;

    @Option(names = "--delta", defaultValue = "1e-5", paramLabel = "DELTA", converter = Converters.Probability.class,
            description = "delta; default ${DEFAULT-VALUE}.")
    private double delta;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed of the graph, data and noise; default ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--seeds", defaultValue = "5", paramLabel = "N", converter = Converters.PositiveInt.class,
            description = "Repetitions of each averaging (seeds S, S+1, ...); default ${DEFAULT-VALUE}.")
    private int seeds;

    @Override
    public Integer call() throws Exception {
        PrintWriter log = spec.commandLine().getOut();
        return new MuffliatoReproduction(new MuffliatoReproduction.Settings(out, topology, nodes, steps, dimension, epsilons,
                distanceEpsilon, delta, seed, seeds)).run(log);
    }
}
