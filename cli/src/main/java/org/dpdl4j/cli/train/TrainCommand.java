package org.dpdl4j.cli.train;

import org.dpdl4j.cli.report.RunDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * {@code dpdl4j train}: trains a model with the chosen algorithm and writes a run directory with the
 * resolved configuration, per-epoch (or per-evaluation) metrics, a plot, the final model and, for
 * private runs, the privacy statement.
 */
@Command(name = "train", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Train a model, centrally or on a graph of nodes, with or without differential privacy.",
                "Examples:",
                "  dpdl4j train --dataset synthetic-lsq",
                "  dpdl4j train --dataset mnist --epochs 15",
                "  dpdl4j train --dataset mnist --privacy central --epsilon 2 --clip 1",
                "  dpdl4j train --algo decor --dataset a9a --topology ring --nodes 16 --epsilon 10 --clip 0.1",
                "  dpdl4j train --algo mu2-untrusted --dataset mnist --model softmax --machines 10 --epsilon 8"})
public final class TrainCommand implements Callable<Integer> {
    /** The algorithm families; each declares its --algo names and the options it reads. */
    static final List<TrainingJob> JOBS = List.of(new CentralTrainingJob(), new DecentralizedTrainingJob(),
            new FederatedTrainingJob());

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    PrivacyOptions privacy;

    @Mixin
    DecentralizedOptions decentralized;

    @Mixin
    FederatedOptions federated;

    @Override
    public Integer call() throws Exception {
        TrainSettings settings = new TrainSettings(common.resolve(), privacy.resolve(), decentralized.resolve(),
                federated.resolve());
        TrainingJob job = jobFor(settings.common().algorithm());
        rejectUnusedOptions(job);
        RunDirectory dir = RunDirectory.create(settings.common().out(), settings.common().algorithm() + "-" + settings.common().dataset());
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        job.run(settings, new RunContext(dir, spec.commandLine().getOut(), args));
        return 0;
    }

    private TrainingJob jobFor(String algorithm) {
        Map<String, TrainingJob> byName = new LinkedHashMap<>();
        for (TrainingJob j : JOBS) {
            for (String a : j.algorithms()) {
                byName.put(a, j);
            }
        }
        TrainingJob job = byName.get(algorithm);
        if (job == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown --algo '" + algorithm + "'; supported: "
                    + String.join(", ", new TreeSet<>(byName.keySet())));
        }
        return job;
    }

    /** Options given on the command line that the chosen algorithm would not read are an error, not a silent no-op. */
    private void rejectUnusedOptions(TrainingJob job) {
        Set<String> allowed = new HashSet<>(job.options());
        for (OptionSpec o : spec.mixins().get("common").options()) {
            allowed.add(o.longestName());
        }
        List<String> unused = new ArrayList<>();
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            if (!allowed.contains(o.longestName()) && !o.usageHelp() && !o.versionHelp()) {
                unused.add(o.longestName());
            }
        }
        if (!unused.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "option(s) " + String.join(", ", unused)
                    + " do not apply to --algo " + common.algorithm + " (it reads: " + String.join(", ", new TreeSet<>(job.options())) + ")");
        }
    }
}
