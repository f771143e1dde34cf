package org.dpdl4j.cli.train;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RegressionData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.covtype.CovtypeTask;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.data.synthetic.DecorLeastSquares;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The data and the model of a run: the training and test matrices in the model's label layout, the
 * labelled training data (for partitioning over nodes), and for Decor's synthetic task the per-user
 * problems and the optimum.
 *
 * @param name        data set name as given on the command line
 * @param train       training split
 * @param test        test split (the training split for synthetic-lsq, which has none)
 * @param labeled     labelled training data (null for regression)
 * @param synthetic   the synthetic least-squares problem (null otherwise)
 * @param model       the model family
 * @param numClasses  0 for regression
 */
record Workload(String name, Split train, Split test, LabeledData labeled, DecorLeastSquares synthetic, ModelKind model,
                int numClasses) {

    /** Features and labels of one split, FLOAT (DOUBLE for the synthetic task). */
    record Split(INDArray features, INDArray labels) {
        long size() {
            return features.size(0);
        }
    }

    long nIn() {
        return train.features().size(1);
    }

    long nOut() {
        return train.labels().size(1);
    }

    boolean classification() {
        return numClasses > 0;
    }

    /** The model configuration for these data. */
    MultiLayerConfiguration configuration(CommonOptions.Common c, ModelOptions options) {
        Architecture arch = Architecture.defaults()
                .withHiddenLayers(c.hidden(), Activation.valueOf(c.activation().toUpperCase(Locale.ROOT)))
                .withLeastSquaresBias(synthetic == null);   // Decor's synthetic task is f_i(x) = 1/2 ||A_i x - b_i||^2, no bias
        return model.configuration((int) nIn(), (int) nOut(), options, arch);
    }

    static Workload load(CommonOptions.Common c) throws IOException {
        String dataset = c.dataset().toLowerCase(Locale.ROOT);
        if (dataset.equals("synthetic-lsq")) {
            return synthetic(c);
        }
        DataDirectory dir = DataDirectory.resolve(c.dataDir());
        TrainTest tt;
        boolean normalise = true;
        switch (dataset) {
            case "mnist" -> tt = Datasets.mnist(dir, PixelScaling.STANDARDIZED);
            case "a9a" -> tt = Datasets.a9a(dir);
            case "covtype" -> tt = Datasets.covtype93k(dir, covtypeTask(c.task())).split(1.0 - c.testFraction(), c.seed());
            case "covtype-20k" -> {
                if (c.task() != null && !c.task().equals("binary")) {
                    throw new IllegalArgumentException("covtype-20k has only the binary task (cover type 2 vs rest)");
                }
                tt = Datasets.covtype20k(dir).split(1.0 - c.testFraction(), c.seed());
            }
            default -> throw new IllegalArgumentException("unknown data set '" + c.dataset()
                    + "'; use mnist, a9a, covtype, covtype-20k or synthetic-lsq");
        }
        if (c.task() != null && !dataset.startsWith("covtype")) {
            throw new IllegalArgumentException("--task applies to covtype only");
        }
        ModelKind kind = c.model() != null ? ModelKind.fromCliName(c.model())
                : switch (dataset) {
                    case "mnist" -> ModelKind.MLP;
                    default -> tt.train().numClasses() == 2 ? ModelKind.LOGISTIC : ModelKind.SOFTMAX;
                };
        if (kind == ModelKind.LEAST_SQUARES || kind == ModelKind.DLG_LENET) {
            throw new IllegalArgumentException("model " + kind.cliName() + " does not fit classification data " + dataset
                    + "; use mlp, logistic or softmax");
        }
        if (kind == ModelKind.LOGISTIC && tt.train().numClasses() != 2) {
            throw new IllegalArgumentException("logistic regression needs two classes but " + dataset + " has "
                    + tt.train().numClasses() + "; use softmax or mlp");
        }
        LabelEncoding enc = kind == ModelKind.LOGISTIC ? LabelEncoding.BINARY : LabelEncoding.ONE_HOT;
        return new Workload(dataset, split(tt.train(), enc), split(tt.test(), enc), tt.train(), null, kind,
                tt.train().numClasses());
    }

    private static CovtypeTask covtypeTask(String task) {
        if (task == null || task.equals("binary")) {
            return CovtypeTask.TYPE2_VS_REST;
        }
        if (task.equals("multiclass")) {
            return CovtypeTask.SEVEN_CLASS;
        }
        throw new IllegalArgumentException("unknown covtype task '" + task + "'; use binary or multiclass");
    }

    private static Split split(LabeledData data, LabelEncoding enc) {
        return new Split(data.features(), data.labelMatrix(enc));
    }

    private static Workload synthetic(CommonOptions.Common c) {
        if (c.model() != null && !c.model().equals("least-squares")) {
            throw new IllegalArgumentException("synthetic-lsq is a least-squares task; use --model least-squares (the default)");
        }
        DecorLeastSquares problem = DecorLeastSquares.generate(c.seed());
        List<INDArray> xs = new ArrayList<>();
        List<INDArray> ys = new ArrayList<>();
        for (RegressionData user : problem.userData()) {
            xs.add(user.features().castTo(DataType.DOUBLE));
            ys.add(user.targets().castTo(DataType.DOUBLE));
        }
        Split pooled = new Split(Nd4j.concat(0, xs.toArray(INDArray[]::new)), Nd4j.concat(0, ys.toArray(INDArray[]::new)));
        return new Workload("synthetic-lsq", pooled, pooled, null, problem, ModelKind.LEAST_SQUARES, 0);
    }
}
