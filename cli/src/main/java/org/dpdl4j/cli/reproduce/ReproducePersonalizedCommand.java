package org.dpdl4j.cli.reproduce;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dpdl4j.experiments.reproduce.PersonalizedReproduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dpdl4j reproduce personalized}: Bellet et al.'s collaborative classification ({@link PersonalizedReproduction}). */
@Command(name = "personalized", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Private personalized learning (Bellet et al.) on the synthetic collaborative classification task, p from"
                + " 2 to 100.",
                "Local models, coordinate descent and private coordinate descent (epsilon-bar 0.15 after a 0.05 warm start,"
                        + " and a sweep of larger budgets), local models on locally private data, the gossip ADMM baseline and"
                        + " an eavesdropper's membership attack; writes results.csv, table.txt, local-dp.csv, releases.csv,"
                        + " gain-per-agent.csv, curves.csv, membership.csv and PNGs (default results/personalized). Needs no"
                        + " data download.",
                "What finishes is journaled as it ends, so that the same command run again after a crash or a kill goes on"
                        + " from there."})
public final class ReproducePersonalizedCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "30 agents, p = 2 and 20, small grids (a smoke run, not the result).")
    boolean quick;

    @Option(names = "--out", description = "Output directory; default results/personalized (runs/personalized-quick with"
            + " --quick).")
    Path out;

    @Option(names = "--feature-norm-bound", paramLabel = "B", description = "Private CD takes every agent's local smoothness"
            + " from this public bound on the features' L2 norm (B^2/4 + 2 lambda_i; 1 for this task's scaled features)"
            + " instead of from its data (the paper's choice, not priced by the ledger).")
    Double featureNormBound;

    @Option(names = "--fresh", description = "Run everything again, discarding what an interrupted reproduction finished in"
            + " --out (by default the same command goes on from there).")
    boolean fresh;

    @Override
    public Integer call() throws Exception {
        // a smoke run never writes over the committed results
        Path dir = out != null ? out : quick ? Path.of("runs", "personalized-quick") : Path.of("results", "personalized");
        PersonalizedReproduction.Settings s = quick ? PersonalizedReproduction.Settings.quick(dir)
                : PersonalizedReproduction.Settings.full(dir);
        if (featureNormBound != null) {
            if (!(featureNormBound > 0) || featureNormBound.isInfinite()) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--feature-norm-bound must be a positive"
                        + " finite number, got " + featureNormBound);
            }
            s = s.withFeatureNormBound(featureNormBound);
        }
        return new PersonalizedReproduction(s, fresh).run(spec.commandLine().getOut());
    }
}
