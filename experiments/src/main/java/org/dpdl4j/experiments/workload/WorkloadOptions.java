package org.dpdl4j.experiments.workload;

import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;
import org.nd4j.linalg.activations.Activation;

/** The options that choose what a run trains: the data set and the model. Every protocol reads them. */
public final class WorkloadOptions {
    private WorkloadOptions() {
    }

    public static final RunOption<String> DATASET = RunOption.of("dataset", "NAME",
            ValueType.choice("mnist", "a9a", "covtype", "covtype-20k", "synthetic-lsq", "collaborative"), IDENTITY,
            "mnist, a9a, covtype (93k subset), covtype-20k, synthetic-lsq (Decor's least-squares task) or collaborative"
                    + " (personalized learning's linear classification task of Bellet et al.); the last two need no download.");
    public static final RunOption<String> TASK = RunOption.of("task", "TASK", ValueType.choice("binary", "multiclass"), IDENTITY,
            "covtype task: binary (cover type 2 vs rest, default) or multiclass (7 types).");
    public static final RunOption<Double> TEST_FRACTION = RunOption.of("test-fraction", "F", ValueType.realBetween(0, 1), IDENTITY,
            "Held-out fraction for the covtype data sets (which have no test file); default 0.2.");
    public static final RunOption<String> MODEL = RunOption.of("model", "MODEL",
            ValueType.choice("mlp", "logistic", "softmax", "least-squares", "cnn"), IDENTITY,
            "mlp, logistic, softmax, least-squares or cnn (the private tanh CNN, mnist only; central training); default: mlp (mnist; softmax for the mu2 protocols and muffliato), logistic (a9a,"
                    + " covtype binary), softmax (covtype multiclass), least-squares (synthetic-lsq; and on any data set for recal, pg-extra, nids and their variants).");
    public static final RunOption<String> HIDDEN = RunOption.of("hidden", "SIZES",
            ValueType.checked("hidden layer sizes, e.g. 128 or 256,128", WorkloadOptions::sizes), IDENTITY,
            "MLP hidden layer sizes, comma-separated; default 128.");
    public static final RunOption<String> ACTIVATION = RunOption.of("activation", "FN",
            ValueType.choice(activations()), IDENTITY, "MLP hidden activation; default relu.");
    public static final RunOption<String> PIXELS = RunOption.of("pixels", "SCALE", ValueType.choice("unit", "standardized"),
            IDENTITY, "MNIST pixel scaling: unit (p/255, as the DP-mu^2-FL paper) or standardized; default unit for the"
                    + " federated protocols and for recal, pg-extra, nids and their variants, standardized otherwise.");

    public static final RunOption<Long> USERS = RunOption.of("users", "N", ValueType.integer(2, 100_000), IDENTITY,
            "collaborative: the number of users (agents); default 100.");
    public static final RunOption<Long> DIMENSION = RunOption.of("dim", "P", ValueType.integer(2, 1_000_000), IDENTITY,
            "collaborative: the feature dimension p (the targets live in the first two coordinates); default 100.");

    /** Every workload option. */
    public static List<RunOption<?>> all() {
        return List.of(DATASET, TASK, TEST_FRACTION, MODEL, HIDDEN, ACTIVATION, PIXELS, USERS, DIMENSION);
    }

    /** The hidden layer sizes of a {@link #HIDDEN} value. */
    public static List<Integer> hiddenSizes(String value) {
        return Arrays.stream(value.split(",")).map(String::strip).map(Integer::parseInt).toList();
    }

    private static String sizes(String text) {
        List<String> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            try {
                int v = Integer.parseInt(part.strip());
                if (v < 1 || v > 1_000_000) {
                    throw new NumberFormatException();
                }
                out.add(Integer.toString(v));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be layer sizes from 1 to 1000000 separated by commas, e.g. 256,128");
            }
        }
        return String.join(",", out);
    }

    private static String[] activations() {
        return Arrays.stream(Activation.values()).map(a -> a.name().toLowerCase(Locale.ROOT))
                .filter(a -> !a.equals("softmax") && !a.equals("thresholdedrelu")).toArray(String[]::new);
    }
}
