package org.dpdl4j.experiments.workload;

import static org.dpdl4j.experiments.workload.WorkloadOptions.ACTIVATION;
import static org.dpdl4j.experiments.workload.WorkloadOptions.DATASET;
import static org.dpdl4j.experiments.workload.WorkloadOptions.DIMENSION;
import static org.dpdl4j.experiments.workload.WorkloadOptions.HIDDEN;
import static org.dpdl4j.experiments.workload.WorkloadOptions.MODEL;
import static org.dpdl4j.experiments.workload.WorkloadOptions.PIXELS;
import static org.dpdl4j.experiments.workload.WorkloadOptions.TASK;
import static org.dpdl4j.experiments.workload.WorkloadOptions.TEST_FRACTION;
import static org.dpdl4j.experiments.workload.WorkloadOptions.USERS;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RegressionData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.covtype.CovtypeTask;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.data.synthetic.BelletAgent;
import org.dpdl4j.data.synthetic.BelletCollaborativeClassification;
import org.dpdl4j.data.synthetic.BelletConfig;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.data.synthetic.DecorLeastSquares;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.options.RunOptions;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Resolves the workload options into a {@link Workload}: loads the data set, chooses the model (the data set's
 * default, or a convex one for protocols whose analysis assumes it), and refuses every workload option that has no
 * effect on the chosen combination (a test fraction for a data set with a test file, hidden layers for a linear
 * model, a covtype task for MNIST, ...).
 */
public final class Workloads {
    private Workloads() {
    }

    /**
     * The workload of a run.
     *
     * @param settings the run's settings (the workload options and the seed)
     * @param protocol the protocol that will train it (its family and model preference choose defaults)
     * @param dir      where the data sets are
     * @throws InvalidOptionException naming an option that does not apply or a value that does not fit
     * @throws IOException            when a data file cannot be read
     */
    public static Workload load(RunSettings settings, Protocol protocol, DataDirectory dir) throws IOException {
        String dataset = settings.require(DATASET, "choose the data set");
        long seed = settings.get(RunOptions.SEED, 1L);
        refuseUnless(settings, TASK, dataset.startsWith("covtype"), "it applies to the covtype data sets only");
        refuseUnless(settings, TEST_FRACTION, dataset.startsWith("covtype"),
                "only the covtype data sets are split here; " + dataset + " has its own test data");
        refuseUnless(settings, PIXELS, dataset.equals("mnist"), "it applies to MNIST only");
        refuseUnless(settings, USERS, dataset.equals("collaborative"), "it applies to the collaborative task only");
        refuseUnless(settings, DIMENSION, dataset.equals("collaborative"), "it applies to the collaborative task only");
        if (dataset.equals("synthetic-lsq")) {
            return synthetic(settings, seed);
        }
        if (dataset.equals("collaborative")) {
            return collaborative(settings, seed);
        }
        ModelKind kind;
        TrainTest tt = switch (dataset) {
            case "mnist" -> Datasets.mnist(dir, pixels(settings, protocol));
            case "a9a" -> Datasets.a9a(dir);
            case "covtype" -> Datasets.covtype93k(dir, covtypeTask(settings)).split(1.0 - settings.get(TEST_FRACTION, 0.2), seed);
            case "covtype-20k" -> {
                if (settings.get(TASK, "binary").equals("multiclass")) {
                    throw TASK.invalid("--task multiclass: covtype-20k has only the binary task (cover type 2 vs rest); use"
                            + " covtype for the 7 classes");
                }
                yield Datasets.covtype20k(dir).split(1.0 - settings.get(TEST_FRACTION, 0.2), seed);
            }
            default -> throw DATASET.invalid("unknown data set '" + dataset + "'");
        };
        kind = settings.get(MODEL).or(() -> java.util.Optional.ofNullable(protocol.workloadDefaults().get("model")))
                .map(ModelKind::fromCliName).orElseGet(() -> defaultModel(dataset, tt, protocol));
        if (kind == ModelKind.DLG_LENET) {
            throw MODEL.invalid("--model " + kind.cliName() + " does not fit classification data " + dataset
                    + "; use mlp, logistic or softmax");
        }
        if (kind == ModelKind.CNN && !dataset.equals("mnist")) {
            throw MODEL.invalid("--model cnn takes images, and " + dataset + " has feature vectors; use it with --dataset mnist");
        }
        if (kind == ModelKind.LOGISTIC && tt.train().numClasses() != 2) {
            throw MODEL.invalid("--model logistic needs two classes but " + dataset + " has " + tt.train().numClasses()
                    + "; use softmax or mlp");
        }
        // least squares on classification data: one-hot targets and no intercept (the Lasso of the relay protocols)
        Architecture arch = architecture(settings, kind, kind != ModelKind.LEAST_SQUARES);
        LabelEncoding enc = kind == ModelKind.LOGISTIC ? LabelEncoding.BINARY : LabelEncoding.ONE_HOT;
        return new Workload(dataset, split(tt.train(), enc), split(tt.test(), enc), tt.train(), null, null, kind, arch, DataType.FLOAT,
                tt.train().numClasses());
    }

    /**
     * The same data with the architecture the settings choose (their hidden layers and activation; the model family
     * stays): what tuning trains each candidate of a search over the network with, without reading the data again.
     */
    public static Workload withArchitecture(Workload base, RunSettings settings) {
        settings.get(MODEL).filter(m -> !m.equals(base.model().cliName())).ifPresent(m -> {
            throw MODEL.invalid("--model " + m + ": the model family is fixed for the whole tuning (" + base.model().cliName()
                    + "); tune its hidden layers and activation instead");
        });
        Architecture arch = architecture(settings, base.model(), base.model() != ModelKind.LEAST_SQUARES);
        return new Workload(base.name(), base.train(), base.test(), base.labeled(), base.synthetic(), base.personal(),
                base.model(), arch, base.dataType(), base.numClasses());
    }

    /** Whether the data set is generated from the seed (nothing to download or verify). */
    public static boolean isGenerated(String dataset) {
        return dataset.equals("synthetic-lsq") || dataset.equals("collaborative");
    }

    /** The default model of a data set: mlp for MNIST (softmax for protocols that assume convexity), else linear. */
    private static ModelKind defaultModel(String dataset, TrainTest tt, Protocol protocol) {
        if (dataset.equals("mnist")) {
            return protocol.prefersConvexModel() ? ModelKind.SOFTMAX : ModelKind.MLP;
        }
        return tt.train().numClasses() == 2 ? ModelKind.LOGISTIC : ModelKind.SOFTMAX;
    }

    private static PixelScaling pixels(RunSettings settings, Protocol protocol) {
        String scaling = settings.get(PIXELS, protocol.workloadDefaults().getOrDefault("pixels",
                protocol.family().equals("federated") ? "unit" : "standardized"));
        return scaling.equals("unit") ? PixelScaling.UNIT_INTERVAL : PixelScaling.STANDARDIZED;
    }

    private static Architecture architecture(RunSettings settings, ModelKind kind, boolean bias) {
        refuseUnless(settings, HIDDEN, kind == ModelKind.MLP, "--model " + kind.cliName() + " has no hidden layers");
        refuseUnless(settings, ACTIVATION, kind == ModelKind.MLP, "--model " + kind.cliName() + " has no hidden layers");
        List<Integer> hidden = WorkloadOptions.hiddenSizes(settings.get(HIDDEN, "128"));
        Activation activation = Activation.valueOf(settings.get(ACTIVATION, "relu").toUpperCase(Locale.ROOT));
        return Architecture.defaults().withHiddenLayers(hidden, activation).withLeastSquaresBias(bias);
    }

    private static CovtypeTask covtypeTask(RunSettings settings) {
        return settings.get(TASK, "binary").equals("binary") ? CovtypeTask.TYPE2_VS_REST : CovtypeTask.SEVEN_CLASS;
    }

    private static Workload.Split split(LabeledData data, LabelEncoding enc) {
        return new Workload.Split(data.features(), data.labelMatrix(enc));
    }

    /** Decor's synthetic least squares: 16 users, d = 10, generated from the seed; the model has no intercept. */
    private static Workload synthetic(RunSettings settings, long seed) {
        settings.get(MODEL).filter(m -> !m.equals("least-squares")).ifPresent(m -> {
            throw MODEL.invalid("--model " + m + ": synthetic-lsq is a least-squares task; drop --model (least-squares is the"
                    + " only model)");
        });
        Architecture arch = architecture(settings, ModelKind.LEAST_SQUARES, false);
        DecorLeastSquares problem = DecorLeastSquares.generate(seed);
        List<INDArray> xs = new ArrayList<>();
        List<INDArray> ys = new ArrayList<>();
        for (RegressionData user : problem.userData()) {
            xs.add(user.features().castTo(DataType.DOUBLE));
            ys.add(user.targets().castTo(DataType.DOUBLE));
        }
        Workload.Split pooled = new Workload.Split(Nd4j.concat(0, xs.toArray(INDArray[]::new)), Nd4j.concat(0, ys.toArray(INDArray[]::new)));
        return new Workload("synthetic-lsq", pooled, pooled, null, problem, null, ModelKind.LEAST_SQUARES, arch, DataType.DOUBLE, 0);
    }

    /**
     * Bellet et al.'s collaborative linear classification (spec 6.6), generated from the seed: every user has its own
     * training and test points and target separator, and the users are related by the similarity of their targets.
     * Features have L1 norm at most 1, so the logistic loss suits both of the private update's mechanisms.
     */
    private static Workload collaborative(RunSettings settings, long seed) {
        settings.get(MODEL).filter(m -> !m.equals("logistic")).ifPresent(m -> {
            throw MODEL.invalid("--model " + m + ": every user of the collaborative task learns a linear classifier; drop --model"
                    + " (logistic is the only model)");
        });
        BelletConfig config = BelletConfig.defaults().withAgents(Math.toIntExact(settings.get(USERS, 100L)))
                .withDim(Math.toIntExact(settings.get(DIMENSION, 100L)));
        MemoryCheck.require(collaborativeMemory(config));   // the users' data is generated before any protocol runs
        BelletProblem problem = BelletCollaborativeClassification.generate(config, seed);
        List<LabeledData> train = problem.agents().stream().map(BelletAgent::train).toList();
        List<LabeledData> test = problem.agents().stream().map(BelletAgent::test).toList();
        Architecture arch = architecture(settings, ModelKind.LOGISTIC, false);
        return new Workload("collaborative", pooled(train), pooled(test), null, null, problem, ModelKind.LOGISTIC, arch,
                DataType.DOUBLE, 2);
    }

    /**
     * What generating the collaborative task takes: every user's points as floats on the heap, then as an ND4J array,
     * then in double precision to be pooled, and the users' similarity graph.
     */
    static MemoryEstimate collaborativeMemory(BelletConfig c) {
        double values = (double) c.agents() * ((c.minTrain() + c.maxTrain()) / 2.0 + c.testPerAgent()) * c.dim();
        return MemoryEstimate.of("the collaborative task of " + c.agents() + " users of dimension " + c.dim())
                .add("the users' points, generated and pooled", values * (4 + 8 + 8), values * 4)
                .heap("their similarity graph", 8.0 * c.agents() * c.agents())
                .knob("--users", "users", 2, c.agents(), u -> collaborativeMemory(c.withAgents((int) u)))
                .knob("--dim", "dimensions", 2, c.dim(), d -> collaborativeMemory(c.withDim((int) d)))
                .build();
    }

    private static Workload.Split pooled(List<LabeledData> parts) {
        return new Workload.Split(Nd4j.concat(0, parts.stream().map(d -> d.features().castTo(DataType.DOUBLE)).toArray(INDArray[]::new)),
                Nd4j.concat(0, parts.stream().map(d -> d.labelMatrix(LabelEncoding.BINARY).castTo(DataType.DOUBLE))
                        .toArray(INDArray[]::new)));
    }

    /** An option given where it has no effect is an error naming it and why. */
    private static void refuseUnless(RunSettings settings, RunOption<?> option, boolean applies, String why) {
        if (!applies && settings.has(option)) {
            throw option.invalid(option.flag() + " has no effect here: " + why + "; drop " + option.flag());
        }
    }
}
