package org.dpdl4j.cli.train;

import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.data.partition.Partition;
import org.dpdl4j.data.partition.Partitioner;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.runtime.NodeData;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The data of a federated run: the workload (MNIST with pixels in [0, 1] by default, as the DP-mu^2-FL paper)
 * and the machines' local datasets.
 *
 * @param workload the data and the model
 * @param machines machine i's examples, in the order of the split (a random order for iid)
 */
record FederatedData(Workload workload, List<NodeData> machines) {

    /** The smallest local dataset. */
    long minLocalSize() {
        return machines.stream().mapToLong(NodeData::size).min().orElseThrow();
    }

    static FederatedData load(CommonOptions.Common c, FederatedOptions.Federated f, boolean convexByDefault, RunContext ctx)
            throws IOException {
        Workload w = workload(c, f.pixels(), convexByDefault);
        if (f.machines() < 1) {
            throw new IllegalArgumentException("--machines must be at least 1, got " + f.machines());
        }
        if (f.machines() > w.train().size()) {
            throw new IllegalArgumentException("--machines " + f.machines() + " is larger than the " + w.train().size()
                    + " training examples of " + w.name() + ": every machine needs at least one example; use at most "
                    + w.train().size() + " machines");
        }
        Partition partition = Partitioner.parse(f.split()).partition(w.labeled(), f.machines(), c.seed());
        if (ctx != null) {
            ctx.writeText("partition.txt", partition.report());
        }
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < f.machines(); i++) {
            int[] rows = partition.indices(i);
            out.add(new NodeData(w.train().features().getRows(rows), w.train().labels().getRows(rows)));
        }
        return new FederatedData(w, out);
    }

    /** The workload; for MNIST the pixel scaling is chosen here (the shared loader standardizes). */
    private static Workload workload(CommonOptions.Common c, String pixels, boolean convexByDefault) throws IOException {
        String dataset = c.dataset().toLowerCase(Locale.ROOT);
        if (dataset.equals("synthetic-lsq")) {
            throw new IllegalArgumentException("the federated algorithms train classifiers; use mnist, a9a, covtype or covtype-20k");
        }
        boolean mnist = dataset.equals("mnist");
        if (!pixels.equals("unit") && !pixels.equals("standardized")) {
            throw new IllegalArgumentException("unknown --pixels '" + pixels + "'; use unit or standardized");
        }
        if (!mnist || pixels.equals("standardized")) {
            CommonOptions.Common effective = mnist && c.model() == null && convexByDefault ? withModel(c, "softmax") : c;
            return Workload.load(effective);
        }
        if (c.task() != null) {
            throw new IllegalArgumentException("--task applies to covtype only");
        }
        TrainTest tt = Datasets.mnist(DataDirectory.resolve(c.dataDir()), PixelScaling.UNIT_INTERVAL);
        ModelKind kind = c.model() != null ? ModelKind.fromCliName(c.model()) : convexByDefault ? ModelKind.SOFTMAX : ModelKind.MLP;
        if (kind != ModelKind.SOFTMAX && kind != ModelKind.MLP) {
            throw new IllegalArgumentException("model " + kind.cliName() + " does not fit MNIST's 10 classes; use softmax or mlp");
        }
        return new Workload("mnist", split(tt.train()), split(tt.test()), tt.train(), null, kind, tt.train().numClasses());
    }

    private static Workload.Split split(org.dpdl4j.data.LabeledData data) {
        return new Workload.Split(data.features(), data.labelMatrix(LabelEncoding.ONE_HOT));
    }

    private static CommonOptions.Common withModel(CommonOptions.Common c, String model) {
        return new CommonOptions.Common(c.algorithm(), c.dataset(), c.task(), c.testFraction(), model, c.hidden(), c.activation(),
                c.epochs(), c.batchSize(), c.learningRate(), c.updater(), c.weightDecay(), c.seed(), c.dataDir(), c.out());
    }
}
