package org.dpdl4j.experiments.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.observe.PartitionSchemes;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RegressionData;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.data.synthetic.DecorLeastSquares;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.protocol.personalized.AgentData;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.runtime.ModelBuilder;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingSet;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What a run trains on and with: the training and test data in the model's label layout, the labelled training
 * data (for splits that follow the labels), for Decor's synthetic task its users and optimum, and the model family,
 * architecture and precision, as the {@code train} command resolves them from its options.
 *
 * @param name         data set name as given
 * @param train        training split
 * @param test         test split (the training split for synthetic-lsq, which has none)
 * @param labeled      labelled training data (null for regression)
 * @param synthetic    the synthetic least-squares problem (null otherwise)
 * @param personal     the collaborative classification task of personalized learning (null otherwise): its users, their
 *                     similarity graph and every user's own test set
 * @param model        the model family
 * @param architecture the model's architecture choices
 * @param dataType     the precision of the model and the data (DOUBLE for the synthetic task, FLOAT otherwise)
 * @param numClasses   0 for regression
 */
public record Workload(String name, Split train, Split test, LabeledData labeled, DecorLeastSquares synthetic, BelletProblem personal,
                       ModelKind model, Architecture architecture, DataType dataType, int numClasses) {

    public Workload {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(architecture, "architecture");
        Objects.requireNonNull(dataType, "dataType");
    }

    /** Features and labels of one split. */
    public record Split(INDArray features, INDArray labels) {
        public long size() {
            return features.size(0);
        }
    }

    /**
     * A validation set held out of the training data at random (the same seed gives the same split), and the workload
     * that trains on the rest: tuning scores its candidates there, never on the test set.
     *
     * @param fraction the share of the training examples held out, in (0, 1)
     * @throws IllegalArgumentException for the synthetic tasks, whose users' data cannot be split this way
     */
    public HeldOut holdOut(double fraction, long seed) {
        if (labeled == null || synthetic != null || personal != null) {
            throw new IllegalArgumentException(name + " has no pooled labelled training set to hold a validation set out of;"
                    + " tune on mnist, a9a, covtype or covtype-20k");
        }
        org.dpdl4j.data.TrainTest parts = labeled.split(1 - fraction, seed);
        LabelEncoding encoding = train.labels().size(1) == 1 && numClasses == 2 ? LabelEncoding.BINARY : LabelEncoding.ONE_HOT;
        Workload rest = new Workload(name, new Split(parts.train().features(), parts.train().labelMatrix(encoding)), test,
                parts.train(), null, null, model, architecture, dataType, numClasses);
        return new HeldOut(rest, new Split(parts.test().features(), parts.test().labelMatrix(encoding)));
    }

    /**
     * @param training   the workload that trains on what was not held out
     * @param validation the held-out examples
     */
    public record HeldOut(Workload training, Split validation) {
    }

    public long nIn() {
        return train.features().size(1);
    }

    public long nOut() {
        return train.labels().size(1);
    }

    public boolean classification() {
        return numClasses > 0;
    }

    /** A fresh network of this workload's model, with the given updater, weight decay and seed. */
    public MultiLayerNetwork network(org.nd4j.linalg.learning.config.IUpdater updater, double weightDecay, long seed) {
        ModelOptions options = ModelOptions.defaults().withSeed(seed).withUpdater(updater).withWeightDecay(weightDecay)
                .withDataType(dataType);
        MultiLayerNetwork net = new MultiLayerNetwork(configuration(options));
        net.init();
        if (synthetic != null) {
            net.params().assign(1.0);   // x^0 = 1: the start of Decor's synthetic task
        }
        return net;
    }

    private org.deeplearning4j.nn.conf.MultiLayerConfiguration configuration(ModelOptions options) {
        return model.configuration((int) nIn(), (int) nOut(), options, architecture);
    }

    /** The sizes of this workload's network, from its configuration (nothing is allocated). */
    public ModelFootprint footprint() {
        return ModelFootprint.of(configuration(ModelOptions.defaults().withDataType(dataType)));
    }

    /** What a protocol needs: the model builder, the training set, the split schemes, and the synthetic users. */
    public RunInputs inputs() {
        ModelBuilder builder = new ModelBuilder() {
            @Override
            public MultiLayerNetwork build(org.nd4j.linalg.learning.config.IUpdater updater, double weightDecay, long seed) {
                return network(updater, weightDecay, seed);
            }

            @Override
            public ModelFootprint footprint() {
                return Workload.this.footprint();
            }

            @Override
            public org.deeplearning4j.nn.conf.MultiLayerConfiguration configuration() {
                return Workload.this.configuration(ModelOptions.defaults().withDataType(dataType));
            }
        };
        TrainingSet set = labeled != null
                ? new TrainingSet(train.features(), train.labels(), labeled.labels(), labeled.numClasses())
                : new TrainingSet(train.features(), train.labels(), null, 0);
        return new RunInputs(builder, set, PartitionSchemes::of, users(), personal == null ? null : personal.similarity());
    }

    /** The synthetic tasks' users (each user's local problem), or null. */
    public List<NodeData> users() {
        if (personal != null) {
            return personal.agents().stream().map(a -> new NodeData(a.train().features().castTo(DataType.DOUBLE),
                    a.train().labelMatrix(LabelEncoding.BINARY).castTo(DataType.DOUBLE))).toList();
        }
        if (synthetic == null) {
            return null;
        }
        List<NodeData> out = new ArrayList<>();
        for (RegressionData user : synthetic.userData()) {
            out.add(new NodeData(user.features().castTo(DataType.DOUBLE), user.targets().castTo(DataType.DOUBLE)));
        }
        return out;
    }

    /**
     * Personalized learning's metrics: every user's own model [n, p] on that user's own test (or training) set, as the
     * mean over the users of the logistic loss and of the accuracy.
     */
    public Evaluation personalEvaluation(INDArray models, boolean onTest) {
        List<Evaluation> each = personalEvaluations(models, onTest);
        return new Evaluation(each.stream().mapToDouble(Evaluation::loss).average().orElseThrow(),
                each.stream().mapToDouble(Evaluation::accuracy).average().orElseThrow());
    }

    /** Every user's own model on its own test (or training) set: logistic loss and accuracy, one per user. */
    public List<Evaluation> personalEvaluations(INDArray models, boolean onTest) {
        List<Evaluation> out = new ArrayList<>();
        for (int i = 0; i < personal.agents().size(); i++) {
            LabeledData data = onTest ? personal.agents().get(i).test() : personal.agents().get(i).train();
            AgentData own = AgentData.ofClasses(data.features(), data.labels());
            INDArray theta = models.getRow(i);
            out.add(new Evaluation(own.logisticLoss(theta), own.accuracy(theta)));
        }
        return out;
    }

    /** The optimality gap {@code (1/n) sum_i ||x_i - x*||^2} of the synthetic task for node models [n, p] (or one model [p]). */
    public double optimalityGap(INDArray models) {
        INDArray rows = models.rank() == 1 ? org.nd4j.linalg.factory.Nd4j.tile(models.reshape(1, models.length()), synthetic.users(), 1)
                : models;
        return synthetic.optimalityGap(rows);
    }
}
