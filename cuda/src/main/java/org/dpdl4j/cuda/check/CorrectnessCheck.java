package org.dpdl4j.cuda.check;

import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.DenseDpStep;
import org.dpdl4j.cuda.engine.DenseModel;
import org.dpdl4j.cuda.engine.DeviceParameters;
import org.dpdl4j.cuda.engine.DoubleOracle;
import org.dpdl4j.cuda.engine.DpStep;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.cuda.engine.StepMeasures;
import org.dpdl4j.cuda.engine.StepNoise;
import org.dpdl4j.cuda.engine.UpdateSegment;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The GPU against the engine's plain-Java reference backend (which the Maven tests hold to dpdl4j's host engine and to
 * DL4J's batch-of-one oracle) and against the double-precision batch-of-one oracle: the clipped sum to 1e-5 relative
 * (L2), every norm to 1e-5 of the batch's largest, each clipped example's true norm at most 1e-5 above the norm it was
 * clipped by, the loss sum to 1e-5 relative, clipping inactive and active; then a
 * full private step (noise copied in, SGD) and the device's Philox noise against the reference. Prints one
 * {@code CHECK ... PASS|FAIL} line per comparison.
 */
final class CorrectnessCheck {
    static final double TOLERANCE = 1e-5;

    private final Backend gpu;
    private final Reporter reporter;

    CorrectnessCheck(Backend gpu, PrintStream out) {
        this.gpu = gpu;
        this.reporter = new Reporter(out);
    }

    /** How many comparisons failed so far (also after one stopped the run with an error). */
    int failures() {
        return reporter.failures();
    }

    /** Runs every comparison; returns the number that failed. */
    int run() {
        for (CheckModels.Case c : List.of(CheckModels.MLP, CheckModels.LOGISTIC, CheckModels.SOFTMAX, CheckModels.TANH_MSE)) {
            for (int b : new int[]{64, 256}) {
                clippedSums(c, b);
            }
        }
        privateStep(CheckModels.MLP, 128);
        philox(CheckModels.MLP);
        String noConvolutions = convolutionsProblem(gpu);
        if (noConvolutions == null) {
            for (int b : new int[]{32, 64}) {
                clippedSums(CheckModels.CNN, b);
            }
        } else {
            reporter.out.println("SKIP cnn: " + noConvolutions);
        }
        return reporter.failures();
    }

    /**
     * Null when the backend computes convolutions (cuDNN loads and starts); else why not (a missing library, or a cuDNN
     * call that fails).
     */
    static String convolutionsProblem(Backend gpu) {
        try {
            gpu.convolutions();
            return null;
        } catch (RuntimeException | LinkageError e) {
            return e.getMessage() != null ? e.getMessage() : e.toString();
        }
    }

    /**
     * The GPU's clipped sums, norms and loss sums against the reference backend's and against the double-precision
     * batch-of-one oracle ({@link DoubleOracle}).
     */
    private void clippedSums(CheckModels.Case c, int b) {
        DenseModel model = c.dense();
        float[] params = CheckModels.parameters(c, 1);
        float[] x = CheckModels.features(c, b, 2 + b);
        float[] y = CheckModels.labels(c, b, 3 + b);
        try (DpStep onGpu = c.open(gpu); DpStep onCpu = c.open(new JavaBackend())) {
            for (DpStep s : new DpStep[]{onGpu, onCpu}) {
                s.parameters().set(params);
                s.loadBatch(x, y, null, b);
            }
            onCpu.clippedSum(Double.MAX_VALUE);   // every norm, nothing clipped
            double[] sorted = toDouble(onCpu.measures().norms());
            Arrays.sort(sorted);
            double median = sorted[b / 2];
            double max = sorted[b - 1];
            DoubleOracle.Result unclippedTruth = oracle(c, params, x, y, b, Double.POSITIVE_INFINITY);
            for (double clip : new double[]{Double.POSITIVE_INFINITY, 2 * max, median, median / 10}) {
                String where = String.format(Locale.ROOT, "%s batch=%d C=%s (%s)", c.name(), b, clip,
                        clip >= max ? "clipping inactive" : "clipping active");
                float[] gpuSum = new float[params.length];
                float[] cpuSum = new float[params.length];
                onGpu.clippedSum(clip);
                onGpu.parameters().readGradient(gpuSum);
                StepMeasures gm = onGpu.measures();
                onCpu.clippedSum(clip);
                onCpu.parameters().readGradient(cpuSum);
                StepMeasures cm = onCpu.measures();
                report("clipped sum vs reference", where, relative(gpuSum, toDouble(cpuSum)));
                report("loss sum vs reference", where, Math.abs(gm.lossSum() - cm.lossSum()) / Math.abs(cm.lossSum()));
                if (!Double.isInfinite(clip)) {
                    report("norms vs reference", where, normError(gm.norms(), toDouble(cm.norms())));
                }
                DoubleOracle.Result truth = Double.isInfinite(clip) ? unclippedTruth : oracle(c, params, x, y, b, clip);
                report("clipped sum vs double oracle", where, relative(gpuSum, truth.clippedSum()));
                report("loss sum vs double oracle", where, Math.abs(gm.lossSum() - truth.lossSum()) / Math.abs(truth.lossSum()));
                if (!Double.isInfinite(clip)) {
                    report("norms vs double oracle", where, normError(gm.norms(), truth.norms()));
                    report("clip excess over C (true norm / clipped-by norm - 1)", where,
                            clipExcess(gm.norms(), truth.norms(), clip));
                }
            }
            if (model != null) {
                // the first layer's norms handed in with the batch instead of computed from it
                onGpu.loadBatch(x, y, CheckModels.squaredNorms(c, x, b), b);
                onGpu.clippedSum(median);
                float[] gpuSum = new float[params.length];
                onGpu.parameters().readGradient(gpuSum);
                report("clipped sum vs double oracle, feature norms supplied", c.name() + " batch=" + b + " C=" + median,
                        relative(gpuSum, DoubleOracle.clippedSum(model, params, x, y, b, median).clippedSum()));
            }
        }
    }

    private static DoubleOracle.Result oracle(CheckModels.Case c, float[] params, float[] x, float[] y, int b, double clip) {
        return c.dense() != null ? DoubleOracle.clippedSum(c.dense(), params, x, y, b, clip)
                : DoubleOracle.clippedSum(c.cnn(), params, x, y, b, clip);
    }

    /**
     * Three private steps (noise copied in, division, update) with plain SGD over every parameter, and with the first
     * layer on SGD and the others on Nesterov momentum (two segments, as DL4J's updater blocks can be).
     */
    private void privateStep(CheckModels.Case c, int b) {
        DenseModel model = c.dense();
        int p = c.numParams();
        int split = (int) model.layers().get(1).weightOffset();
        List<UpdateSegment> mixed = List.of(new UpdateSegment(0, split, UpdateSegment.Rule.SGD, 0),
                new UpdateSegment(split, p - split, UpdateSegment.Rule.NESTEROVS, 0));
        float[] params = CheckModels.parameters(c, 5);
        float[] x = CheckModels.features(c, b, 6);
        float[] y = CheckModels.labels(c, b, 7);
        float[] noise = CheckModels.uniform(model.nIn() * model.nIn(), 8);
        float[] noiseFull = new float[p];
        for (int j = 0; j < noiseFull.length; j++) {
            noiseFull[j] = noise[j % noise.length] - 0.5f;
        }
        for (List<UpdateSegment> segments : List.of(List.of(UpdateSegment.sgd(p)), mixed)) {
            boolean two = segments.size() == 2;
            float[] lr = two ? new float[]{0.05f, 0.02f} : new float[]{0.05f};
            float[] momentum = two ? new float[]{0f, 0.9f} : new float[]{0f};
            float[][] after = new float[2][p];
            float[][] state = new float[2][];
            try (DenseDpStep onGpu = new DenseDpStep(gpu, model); DenseDpStep onCpu = new DenseDpStep(new JavaBackend(), model)) {
                DenseDpStep[] steps = {onGpu, onCpu};
                for (int k = 0; k < 2; k++) {
                    DeviceParameters on = steps[k].parameters();
                    on.useUpdate(segments);
                    on.set(params);
                    for (int s = 0; s < 3; s++) {
                        steps[k].loadBatch(x, y, null, b);
                        steps[k].clippedSum(1.0);
                        on.step(new StepNoise.FromArray(noiseFull), b, lr, momentum);
                    }
                    on.read(after[k]);
                    state[k] = new float[on.stateLength()];
                    on.readUpdaterState(state[k]);
                }
            }
            String where = c.name() + " batch=" + b + (two ? ", SGD and Nesterovs segments" : ", SGD");
            report("parameters after 3 private steps vs reference", where, relative(after[0], toDouble(after[1])));
            if (state[1].length > 0) {
                report("momentum after 3 private steps vs reference", where, relative(state[0], toDouble(state[1])));
            }
        }
    }

    private void philox(CheckModels.Case c) {
        DenseModel model = c.dense();
        int p = c.numParams();
        float[][] drawn = new float[2][p];
        try (DenseDpStep onGpu = new DenseDpStep(gpu, model); DenseDpStep onCpu = new DenseDpStep(new JavaBackend(), model)) {
            DenseDpStep[] steps = {onGpu, onCpu};
            for (int k = 0; k < 2; k++) {
                steps[k].parameters().set(new float[p]);
                steps[k].loadBatch(new float[0], new float[0], null, 0);
                steps[k].clippedSum(1.0);
                steps[k].parameters().step(new StepNoise.SeededPhilox(12345, 7, 1f), 1.0, -1.0);   // params := the noise
                steps[k].parameters().read(drawn[k]);
            }
        }
        double worst = 0;
        for (int j = 0; j < p; j++) {
            worst = Math.max(worst, Math.abs(drawn[0][j] - drawn[1][j]) / Math.max(1.0, Math.abs(drawn[1][j])));
        }
        report("Philox noise vs reference (max abs)", c.name() + " " + p + " draws", worst);
        report("Philox noise's moments vs N(0, 1) (0 within 5 standard errors, else the larger z-score)", c.name() + " " + p
                + " draws", NoiseMoments.excess(drawn[0]));
    }

    private void report(String what, String where, double error) {
        reporter.report(what, where, error);
    }

    /** Prints one {@code CHECK PASS|FAIL} line per comparison against {@link #TOLERANCE} and counts the failures. */
    static final class Reporter {
        final PrintStream out;
        private int failures;

        Reporter(PrintStream out) {
            this.out = out;
        }

        void report(String what, String where, double error) {
            boolean ok = error <= TOLERANCE;
            if (!ok) {
                failures++;
            }
            out.printf(Locale.ROOT, "CHECK %s %s: %s error %.2e (tolerance %.0e)%n", ok ? "PASS" : "FAIL", where, what, error,
                    TOLERANCE);
        }

        int failures() {
            return failures;
        }
    }

    static double relative(float[] got, double[] expected) {
        double d = 0;
        double n = 0;
        for (int j = 0; j < got.length; j++) {
            double e = got[j] - expected[j];
            d += e * e;
            n += expected[j] * expected[j];
        }
        return n == 0 ? Math.sqrt(d) : Math.sqrt(d / n);
    }

    private static double normError(float[] got, double[] expected) {
        double largest = 0;
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            largest = Math.max(largest, expected[i]);
            worst = Math.max(worst, Math.abs(got[i] - expected[i]));
        }
        return worst / largest;
    }

    /**
     * How far above C an example's contribution lands because the GPU computed the norm it clipped by in float32 (the
     * README's "What the guarantee assumes"): its true norm times the factor min(1, C / norm) the GPU applied, over C.
     * A clipped example whose norm erred low counts, and so does one left unclipped because its norm erred below C; 0
     * when every contribution stays within C.
     */
    static double clipExcess(float[] used, double[] truth, double clip) {
        double worst = 0;
        for (int i = 0; i < truth.length; i++) {
            double factor = used[i] > clip ? clip / used[i] : 1.0;
            worst = Math.max(worst, truth[i] * factor / clip - 1);
        }
        return worst;
    }

    static double[] toDouble(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }
}
