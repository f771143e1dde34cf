package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.optim.TestNetworks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stacked node models of the engine, on its plain-Java reference backend (the arithmetic of the CUDA kernels), held
 * to dpdl4j's host engine for stacked models: every node's clipped sum over its own padded batch to 1e-5 relative, its
 * loss sum, with clipping inactive and active, with and without padding and supplied feature norms; then the division,
 * user-level clipping, the noisy step and gossip, each against the same operation on the host.
 */
class NodeModelsReferenceTest {
    private static final int NODES = 5;

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.dpdl4j.cuda.dl4j.EngineCases#networks")
    void clippedSumsOfEveryNodeMatchTheHostEngine(String name, Activation hidden, Activation out, LossFunction loss,
                                                  int[] sizes, int batch) {
        MultiLayerNetwork net = EngineCases.network(hidden, out, loss, sizes);
        PerExampleGradients host = PerExampleGradients.of(net);
        long p = net.numParams();
        INDArray models = nodeModels(net);
        INDArray x = Nd4j.concat(0, nodeFeatures(batch, sizes)).reshape(NODES, batch, sizes[0]);
        INDArray y = labels(loss, batch, sizes);
        INDArray mask = mask(batch);
        try (CudaNodeModels device = new CudaNodeModels(host.spec(), NODES, new JavaBackend(), true)) {
            device.upload(models);
            INDArray reference = Nd4j.create(DataType.FLOAT, NODES, p);
            double median = host.clippedSum(models, x, y, mask, 1e30, reference).norms().medianNumber().doubleValue();
            for (double clip : new double[]{Double.POSITIVE_INFINITY, median, median / 10}) {
                for (boolean masked : new boolean[]{false, true}) {
                    for (boolean supplyNorms : new boolean[]{false, true}) {
                        INDArray m = masked ? mask : null;
                        INDArray xSq = supplyNorms ? x.mul(x).sum(2) : null;
                        String where = name + ", C = " + clip + (masked ? ", padded" : "") + (supplyNorms ? ", norms given" : "");
                        ClippedBatch expected = host.clippedSum(models, x, y, m, xSq, clip, reference);
                        double[] losses = device.clippedSums(x, y, m, xSq, clip);
                        INDArray got = Nd4j.create(DataType.FLOAT, NODES, p);
                        device.downloadGradients(got);
                        assertRelative(reference, got, 1e-5, "clipped sums, " + where);
                        assertRelative(expected.lossSums().castTo(DataType.DOUBLE).reshape(NODES),
                                Nd4j.createFromArray(losses), 1e-5, "loss sums, " + where);
                    }
                }
            }
        }
    }

    @Test
    void divisionClippingStepAndGossipMatchTheHost() {
        MultiLayerNetwork net = EngineCases.network(Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, new int[]{12, 8, 4});
        PerExampleGradients host = PerExampleGradients.of(net);
        long p = net.numParams();
        int batch = 6;
        INDArray models = nodeModels(net);
        INDArray x = Nd4j.concat(0, nodeFeatures(batch, new int[]{12, 8, 4})).reshape(NODES, batch, 12);
        INDArray y = labels(LossFunction.MCXENT, batch, new int[]{12, 8, 4});
        INDArray grad = Nd4j.create(DataType.FLOAT, NODES, p);
        host.clippedSum(models, x, y, null, 0.5, grad);
        double[] divisors = {6, 5, 4, 6, 3};
        grad.diviColumnVector(Nd4j.createFromArray(divisors).castTo(DataType.FLOAT).reshape(NODES, 1));
        double userClip = 0.05;
        INDArray rowNorms = grad.norm2(1);
        assertTrue(rowNorms.minNumber().doubleValue() > userClip, "user-level clipping is active on every row");
        grad.muliColumnVector(rowNorms.rdiv(userClip).reshape(NODES, 1));
        INDArray noise = TestNetworks.features(DataType.FLOAT, 99, NODES, p);
        double lr = 0.3;
        double decay = 0.01;
        INDArray expected = models.mul(1.0 - lr * decay).subi(grad.add(noise).muli(lr));
        // a ring of 5 with Metropolis-Hastings weights 1/3, in compressed rows
        int[] starts = {0, 3, 6, 9, 12, 15};
        int[] cols = {0, 1, 4, 0, 1, 2, 1, 2, 3, 2, 3, 4, 0, 3, 4};
        double[] weights = new double[15];
        java.util.Arrays.fill(weights, 1.0 / 3);
        INDArray w = Nd4j.create(DataType.FLOAT, NODES, NODES);
        for (int i = 0; i < NODES; i++) {
            for (int k = starts[i]; k < starts[i + 1]; k++) {
                w.putScalar(i, cols[k], weights[k]);
            }
        }
        INDArray mixed = w.mmul(expected);
        try (CudaNodeModels device = new CudaNodeModels(host.spec(), NODES, new JavaBackend(), true)) {
            device.upload(models);
            device.clippedSums(x, y, null, null, 0.5);
            double[] factors = new double[NODES];
            for (int i = 0; i < NODES; i++) {
                factors[i] = 1.0 / divisors[i];
            }
            device.scaleRows(factors);
            device.clipRows(userClip);
            INDArray got = Nd4j.create(DataType.FLOAT, NODES, p);
            device.downloadGradients(got);
            assertRelative(grad, got, 1e-5, "divided and user-clipped gradients");
            device.uploadNoise(noise);
            device.step(true, lr, decay);
            device.download(got);
            assertRelative(expected, got, 1e-6, "the noisy step with weight decay");
            device.mixing(starts, cols, weights);
            device.mix();
            device.download(got);
            assertRelative(mixed, got, 1e-6, "gossip");
        }
    }

    /**
     * The operations of the federated rounds against ND4J: a batch gathered from the data kept on the device equals the
     * same batch copied in; ranged broadcast, rows added to rows, the row norms of user clipping, running sums and the
     * mean of the sums plus noise; and the refusals (overlapping rows, a row outside the data).
     */
    @Test
    void heldDataRowsAndRunningSumsMatchTheHost() {
        int[] sizes = {6, 4, 3};
        MultiLayerNetwork net = EngineCases.network(Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, sizes);
        PerExampleGradients host = PerExampleGradients.of(net);
        long p = net.numParams();
        int batch = 3;
        INDArray data = TestNetworks.features(DataType.FLOAT, 61, 12, sizes[0]);
        INDArray dataLabels = EngineCases.labels(LossFunction.MCXENT, 12, sizes);
        // node i takes rows 2i, 2i + 1 and, but for the last node, 2i + 2; the last node's third example is padding
        int[] rows = new int[NODES * batch];
        float[] mask = new float[NODES * batch];
        for (int i = 0; i < NODES; i++) {
            for (int j = 0; j < batch; j++) {
                boolean real = i < NODES - 1 || j < 2;
                rows[i * batch + j] = real ? 2 * i + j : 11;
                mask[i * batch + j] = real ? 1f : 0f;
            }
        }
        data.getRow(11).assign(0);
        dataLabels.getRow(11).assign(0);
        INDArray x = Nd4j.pullRows(data, 1, rows).reshape('c', NODES, batch, sizes[0]);
        INDArray y = Nd4j.pullRows(dataLabels, 1, rows).reshape('c', NODES, batch, sizes[2]);
        INDArray m = Nd4j.createFromArray(mask).reshape(NODES, batch);
        INDArray models = nodeModels(net);
        try (CudaNodeModels copied = new CudaNodeModels(host.spec(), NODES, new JavaBackend(), true);
             CudaNodeModels held = new CudaNodeModels(host.spec(), NODES, new JavaBackend(), true)) {
            copied.upload(models);
            held.upload(models);
            assertTrue(held.holdData(data, dataLabels, data.mul(data).sum(1)), "the reference keeps any data");
            double[] expectedLosses = copied.clippedSums(x, y, m, x.mul(x).sum(2), 0.2);
            double[] losses = held.clippedSums(rows, batch, mask, 0.2);
            INDArray expected = Nd4j.create(DataType.FLOAT, NODES, p);
            INDArray got = Nd4j.create(DataType.FLOAT, NODES, p);
            copied.downloadGradients(expected);
            held.downloadGradients(got);
            assertRelative(expected, got, 1e-6, "clipped sums of a batch gathered on the device");
            assertArrayEquals(expectedLosses, losses, 1e-12, "loss sums of a batch gathered on the device");

            INDArray grad = got.dup();
            held.addRows(3, 0, 2, -0.75);
            grad.get(NDArrayIndex.interval(0, 2), NDArrayIndex.all())
                    .subi(grad.get(NDArrayIndex.interval(3, 5), NDArrayIndex.all()).mul(0.75));
            held.useRows(2);
            held.clipRows(Double.POSITIVE_INFINITY);
            INDArray norms = grad.get(NDArrayIndex.interval(0, 2), NDArrayIndex.all()).norm2(1);
            assertRelative(norms.castTo(DataType.DOUBLE), Nd4j.createFromArray(held.rowNorms()), 1e-6, "row norms");
            held.accumulate(0.5);
            held.accumulate(2.0);
            INDArray sums = Nd4j.create(DataType.FLOAT, 2, p);
            held.downloadSums(sums);
            assertRelative(grad.get(NDArrayIndex.interval(0, 2), NDArrayIndex.all()).mul(2.5), sums, 1e-6, "running sums");
            INDArray noise = TestNetworks.features(DataType.FLOAT, 62, 2, p);
            INDArray mean = Nd4j.create(DataType.FLOAT, 1, p);
            held.uploadNoise(noise);
            held.meanOfSums(true, mean);
            assertRelative(sums.add(noise).mean(0).reshape(1, p), mean, 1e-6, "mean of the sums plus noise");

            INDArray row = TestNetworks.features(DataType.FLOAT, 63, 1, p);
            held.broadcast(row, 1, 3);
            INDArray after = Nd4j.create(DataType.FLOAT, 2, p);
            held.download(after);
            assertRelative(models.getRow(0).reshape(1, p), after.getRow(0).reshape(1, p), 0, "row 0 is kept");
            assertRelative(row, after.getRow(1).reshape(1, p), 0, "row 1 is the broadcast row");

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> held.addRows(0, 1, 2, 1.0));
            assertTrue(e.getMessage().contains("overlap"), e.getMessage());
            held.useRows(NODES);
            int[] outside = rows.clone();
            outside[4] = 12;
            e = assertThrows(IllegalArgumentException.class, () -> held.clippedSums(outside, batch, mask, 1.0));
            assertTrue(e.getMessage().contains("row 12 is not a row of the 12 rows"), e.getMessage());
        }
    }

    @Test
    void refusesBatchesOfAnotherShapeAndMixingMatricesOfAnotherSize() {
        MultiLayerNetwork net = EngineCases.network(Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT, new int[]{6, 3});
        PerExampleGradients host = PerExampleGradients.of(net);
        try (CudaNodeModels device = new CudaNodeModels(host.spec(), NODES, new JavaBackend(), true)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> device.clippedSums(Nd4j.create(DataType.FLOAT, 4, 2, 6), Nd4j.create(DataType.FLOAT, 4, 2, 3), null,
                            null, 1.0));
            assertTrue(e.getMessage().contains("[5, b, nIn]"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> device.mixing(new int[]{0, 1}, new int[]{0}, new double[]{1}));
            assertTrue(e.getMessage().contains("5 compressed rows"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> device.upload(Nd4j.create(DataType.FLOAT, 4, net.numParams())));
            assertTrue(e.getMessage().contains("[5, " + net.numParams() + "]"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> device.uploadNoise(Nd4j.create(DataType.FLOAT, 6, net.numParams())));
            assertTrue(e.getMessage().contains("1 <= k <= 5"), e.getMessage());
            // noise is added once per fill, never an earlier round's again
            IllegalStateException s = assertThrows(IllegalStateException.class, () -> device.step(true, 0.1, 0.0));
            assertTrue(s.getMessage().contains("call uploadNoise(...) or drawPhiloxNoise(...)"), s.getMessage());
            device.uploadNoise(Nd4j.create(DataType.FLOAT, 3, net.numParams()));
            s = assertThrows(IllegalStateException.class, () -> device.step(true, 0.1, 0.0));
            assertTrue(s.getMessage().contains("no fresh noise for 5 rows on the device (3 rows were filled)"), s.getMessage());
            device.uploadNoise(Nd4j.create(DataType.FLOAT, 5, net.numParams()));
            device.step(true, 0.1, 0.0);
            assertThrows(IllegalStateException.class, () -> device.step(true, 0.1, 0.0));
            device.useRows(2);
            s = assertThrows(IllegalStateException.class, () -> device.drawPhiloxNoise(1, 0, 0.0, 0, 1.0));
            assertTrue(s.getMessage().contains("pairwise"), s.getMessage());
        }
    }

    /** Each node's own parameters: the network's, moved by a different amount per node. */
    private static INDArray nodeModels(MultiLayerNetwork net) {
        long p = net.numParams();
        INDArray models = Nd4j.tile(net.params().reshape(1, p), NODES, 1).castTo(DataType.FLOAT);
        models.addi(TestNetworks.features(DataType.FLOAT, 5, NODES, p).muli(0.05));
        return models;
    }

    private static INDArray[] nodeFeatures(int batch, int[] sizes) {
        INDArray[] out = new INDArray[NODES];
        for (int i = 0; i < NODES; i++) {
            out[i] = TestNetworks.features(DataType.FLOAT, 40 + i, batch, sizes[0]);
        }
        return out;
    }

    private static INDArray labels(LossFunction loss, int batch, int[] sizes) {
        INDArray[] out = new INDArray[NODES];
        for (int i = 0; i < NODES; i++) {
            out[i] = EngineCases.labels(loss, batch + i, sizes).get(NDArrayIndex.interval(0, batch), NDArrayIndex.all());
        }
        return Nd4j.concat(0, out).reshape(NODES, batch, sizes[sizes.length - 1]);
    }

    /** Node i has batch - i real examples (at least one), the rest padding. */
    private static INDArray mask(int batch) {
        INDArray m = Nd4j.create(DataType.FLOAT, NODES, batch);
        for (int i = 0; i < NODES; i++) {
            int real = Math.max(1, batch - i);
            m.get(NDArrayIndex.point(i), NDArrayIndex.interval(0, real)).assign(1);
        }
        return m;
    }

    static void assertRelative(INDArray expected, INDArray got, double tolerance, String what) {
        assertArrayEquals(expected.shape(), got.shape(), what);
        INDArray e = expected.castTo(DataType.DOUBLE);
        double err = got.castTo(DataType.DOUBLE).sub(e).norm2Number().doubleValue() / Math.max(1e-30, e.norm2Number().doubleValue());
        assertTrue(err <= tolerance, what + " differ by " + err + " (relative)");
    }
}
