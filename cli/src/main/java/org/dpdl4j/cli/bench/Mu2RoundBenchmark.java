package org.dpdl4j.cli.bench;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.models.SoftmaxRegressionModel;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.protocol.federated.Mu2Iterates;
import org.dpdl4j.protocol.federated.Mu2Machines;
import org.dpdl4j.protocol.federated.ParameterBall;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;

import java.util.Locale;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;

/**
 * Cost of a mu^2-SGD round against a plain SGD round on the same model and the same fresh examples, measured
 * in one run (ratios, not bare times). Model: MNIST-sized softmax regression (784 -> 10, 7850 parameters) in
 * the given precision; M machines with one example each per round. Compared:
 * <ul>
 *   <li>mu^2: the machines' increments from one batched pass (2M gradients: at x_t and x_{t-1}), the estimates'
 *       update, the average, the projected step and the anytime average ({@link Mu2Machines}, {@link Mu2Iterates});</li>
 *   <li>plain federated SGD: the same engine, M gradients at x_t (one per machine), the average and a step;</li>
 *   <li>DL4J {@code fit} on the round's M examples as one batch (one aggregated gradient: a lower bound no
 *       per-machine protocol can reach for M &gt; 1).</li>
 * </ul>
 * Usage: {@code Mu2RoundBenchmark [rounds] [FLOAT|DOUBLE] [M ...]}; set OMP_NUM_THREADS=1 as the tests do.
 */
public final class Mu2RoundBenchmark {
    private Mu2RoundBenchmark() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        DataType type = args.length > 1 ? DataType.valueOf(args[1]) : DataType.DOUBLE;
        int[] ms = args.length > 2 ? java.util.Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray() : new int[]{1, 10, 100};
        System.out.printf(Locale.ROOT, "mu^2-SGD round vs plain SGD round, softmax 784 -> 10 (7850 parameters), %s, %d rounds, OMP_NUM_THREADS=%s%n",
                type, rounds, System.getenv("OMP_NUM_THREADS"));
        System.out.printf(Locale.ROOT, "%5s %14s %14s %14s %12s %12s%n", "M", "mu2 us/round", "sgd us/round", "fit us/round",
                "mu2/sgd", "mu2/fit");
        for (int m : ms) {
            double[] r = measure(m, rounds, type);
            System.out.printf(Locale.ROOT, "%5d %14.1f %14.1f %14.1f %12.3f %12.3f%n", m, r[0], r[1], r[2], r[0] / r[1], r[0] / r[2]);
        }
    }

    /** Microseconds per round of mu^2, plain engine SGD and DL4J fit, alternating blocks so drift hits all three. */
    private static double[] measure(int m, int rounds, DataType type) {
        MultiLayerNetwork net = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(784, 10,
                ModelOptions.defaults().withDataType(type).withUpdater(new Sgd(1e-3))));
        net.init();
        // A pool of examples per machine, cycled (the values do not matter for timing; memory stays small).
        int pool = Math.min(rounds, 500);
        long n = (long) m * pool;
        INDArray features = Nd4j.rand(type, m, pool, 784);
        INDArray labels = Nd4j.zeros(type, m, pool, 10);
        java.util.Random random = new java.util.Random(1);
        for (int i = 0; i < m; i++) {
            for (int t = 0; t < pool; t++) {
                labels.putScalar(new long[]{i, t, random.nextInt(10)}, 1.0);
            }
        }
        PerExampleGradients engine = PerExampleGradients.of(net);
        long p = engine.spec().numParams();
        Mu2Machines machines = new Mu2Machines(engine, m, Double.POSITIVE_INFINITY);
        Mu2Iterates iterates = new Mu2Iterates(Nd4j.zeros(type, p), new ParameterBall(0.1));
        INDArray x = Nd4j.zeros(type, 1, p);
        INDArray points = Nd4j.zeros(type, m, p);
        INDArray grad = Nd4j.zeros(type, m, p);
        INDArray flat = features.reshape(n, 784);
        INDArray flatLabels = labels.reshape(n, 10);
        long[] nanos = new long[3];
        int block = Math.max(1, rounds / 20);
        int warm = Math.min(rounds / 5, 200);
        for (int start = 0; start < rounds; start += block) {
            int end = Math.min(rounds, start + block);
            for (int kind = 0; kind < 3; kind++) {
                long t0 = System.nanoTime();
                for (int round = start; round < end; round++) {
                    int t = round % pool;
                    INDArray f = features.get(all(), interval(t, t + 1), all());
                    INDArray y = labels.get(all(), interval(t, t + 1), all());
                    switch (kind) {
                        case 0 -> {
                            machines.accumulate(iterates.x(), iterates.previous(), iterates.t(), f, y);
                            iterates.advance(machines.dhat().mean(0), 1e-6);
                        }
                        case 1 -> {
                            points.assign(0).addiRowVector(x);
                            engine.clippedSum(points, f.castTo(type), y.castTo(type), null, Double.POSITIVE_INFINITY, grad);
                            x.subi(grad.mean(0).reshape(1, p).muli(1e-3));
                        }
                        default -> net.fit(new DataSet(flat.get(interval((long) t * m, (long) (t + 1) * m), all()),
                                flatLabels.get(interval((long) t * m, (long) (t + 1) * m), all())));
                    }
                }
                if (start >= warm) {
                    nanos[kind] += System.nanoTime() - t0;
                }
            }
        }
        int measured = rounds - ((warm + block - 1) / block) * block;
        return new double[]{nanos[0] / 1e3 / measured, nanos[1] / 1e3 / measured, nanos[2] / 1e3 / measured};
    }
}
