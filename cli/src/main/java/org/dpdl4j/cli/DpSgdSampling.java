package org.dpdl4j.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.optim.BatchSampler;
import org.dpdl4j.optim.PrivateTrainer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The sampling of a DP-SGD run for the {@code account} commands, in either of two forms: the Poisson rate and the
 * number of steps, or the batch size, data-set size and epochs a training run is planned with. The second form is
 * turned into the first exactly as {@code train --algo dp-sgd} plans its steps, so both print the same epsilon.
 */
final class DpSgdSampling {
    @Option(names = "--sample-rate", paramLabel = "Q",
            description = "Poisson sampling rate in (0, 1]: expected batch size / dataset size (with --steps).")
    private Double sampleRate;

    @Option(converter = Converters.PositiveLong.class, names = "--steps", paramLabel = "T",
            description = "Number of steps, >= 1 (with --sample-rate).")
    private Long steps;

    @Option(converter = Converters.PositiveLong.class, names = "--batch-size", paramLabel = "B",
            description = "Expected batch size (with --dataset-size and --epochs, instead of --sample-rate and --steps).")
    private Long batchSize;

    @Option(converter = Converters.PositiveLong.class, names = "--dataset-size", paramLabel = "N",
            description = "Number of training examples (with --batch-size and --epochs).")
    private Long datasetSize;

    @Option(converter = Converters.Positive.class, names = "--epochs", paramLabel = "E",
            description = "Passes over the data (with --batch-size and --dataset-size): q = B / N, and"
                    + " T = ceil(E x round(N / B)) steps, an epoch being round(N / B) steps as train --algo dp-sgd"
                    + " plans it (= ceil(E N / B) when B divides N).")
    private Double epochs;

    /**
     * The rate and steps, with how they were derived when the second form was given.
     *
     * @param derivation empty for the rate and steps as given, else the line that says how they follow from B, N, E
     */
    record Schedule(double sampleRate, long steps, String derivation) {
    }

    /**
     * The schedule given on the command line.
     *
     * @throws ParameterException (exit code 2) naming what is missing, mixed or out of range, and the fix
     */
    Schedule resolve(CommandSpec spec) {
        List<String> rateForm = given(new Object[] {sampleRate, steps}, "--sample-rate", "--steps");
        List<String> epochForm = given(new Object[] {batchSize, datasetSize, epochs}, "--batch-size", "--dataset-size", "--epochs");
        String both = "give the sampling either as --sample-rate Q with --steps T, or as --batch-size B,"
                + " --dataset-size N and --epochs E";
        if (rateForm.isEmpty() && epochForm.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "no sampling given: " + both);
        }
        if (!rateForm.isEmpty() && !epochForm.isEmpty()) {
            throw new ParameterException(spec.commandLine(), String.join(" and ", rateForm) + " cannot be combined with "
                    + String.join(" and ", epochForm) + ": they are two ways to give the same sampling; " + both);
        }
        if (!rateForm.isEmpty()) {
            requireAll(spec, rateForm, List.of("--sample-rate", "--steps"));
            if (!(sampleRate > 0 && sampleRate <= 1)) {
                throw new ParameterException(spec.commandLine(), "--sample-rate must lie in (0, 1], got " + sampleRate
                        + " (q = expected batch size / dataset size)");
            }
            return new Schedule(sampleRate, steps, "");
        }
        requireAll(spec, epochForm, List.of("--batch-size", "--dataset-size", "--epochs"));
        if (batchSize > datasetSize) {
            throw new ParameterException(spec.commandLine(), "--batch-size " + batchSize + " is larger than --dataset-size "
                    + datasetSize + ": the expected batch cannot hold more examples than the data set; give B <= N");
        }
        double q = (double) batchSize / datasetSize;
        long perEpoch = BatchSampler.stepsPerEpoch(q);
        long t = PrivateTrainer.plannedSteps(epochs, perEpoch);
        String derivation = String.format(Locale.ROOT, "Schedule: q = B / N = %d / %d = %.6g; T = ceil(E x round(N / B))"
                + " = ceil(%s x %d) = %d steps (an epoch is round(N / B) steps, as train --algo dp-sgd plans it).",
                batchSize, datasetSize, q, number(epochs), perEpoch, t);
        return new Schedule(q, t, derivation);
    }

    private static List<String> given(Object[] values, String... flags) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                out.add(flags[i]);
            }
        }
        return out;
    }

    private static void requireAll(CommandSpec spec, List<String> given, List<String> form) {
        List<String> missing = new ArrayList<>(form);
        missing.removeAll(given);
        if (!missing.isEmpty()) {
            throw new ParameterException(spec.commandLine(), String.join(" and ", given) + " also "
                    + (given.size() == 1 ? "needs " : "need ") + String.join(" and ", missing) + " (the sampling is "
                    + String.join(", ", form) + ")");
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
