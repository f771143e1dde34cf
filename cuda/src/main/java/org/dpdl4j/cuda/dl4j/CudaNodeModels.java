package org.dpdl4j.cuda.dl4j;

import java.lang.ref.Reference;
import java.util.Arrays;
import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.DeviceArray;
import org.dpdl4j.cuda.engine.StackedDenseModels;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.privacy.noise.PhiloxNoiseStreams;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The node models of a multi-party run on the engine ({@link StackedDenseModels}), as the core asks for them: ND4J
 * arrays copied in and out from their host memory, everything else on the device. On the reference
 * {@link org.dpdl4j.cuda.engine.JavaBackend} it is the CPU-side check of a GPU round.
 */
public final class CudaNodeModels implements DeviceNodeModels {
    private final StackedDenseModels models;
    private final Backend backend;
    private final boolean ownsBackend;
    /** Closed once: a second close frees nothing again (cudaFree of a freed address may free another array). */
    private boolean closed;
    private final long numParams;
    private final float[] lossSums;
    private boolean refuseData;
    /** How many noise rows the last fill wrote, and whether no noisy operation has added them yet. */
    private int noiseRows;
    private boolean noiseFresh;

    /**
     * @param ownsBackend whether closing these models closes the backend too
     * @throws IllegalArgumentException when the engine does not compute the network ({@link DenseModels#whyNot})
     */
    public CudaNodeModels(DenseNetworkSpec spec, int nodes, Backend backend, boolean ownsBackend) {
        this.models = new StackedDenseModels(backend, DenseModels.of(spec), nodes);
        this.backend = backend;
        this.ownsBackend = ownsBackend;
        this.numParams = spec.numParams();
        this.lossSums = new float[nodes];
    }

    @Override
    public int nodes() {
        return models.nodes();
    }

    @Override
    public void useRows(int k) {
        models.useRows(k);
    }

    @Override
    public void broadcast(INDArray row) {
        broadcast(row, 0, models.rowsInUse());
    }

    @Override
    public void broadcast(INDArray row, int first, int count) {
        if (row.length() != numParams) {
            throw new IllegalArgumentException("a model has " + numParams + " parameters, got " + row.length());
        }
        INDArray host = HostArrays.rowMajorFloats(row);
        models.broadcast(HostArrays.pointer(host), first, count);
        Reference.reachabilityFence(host);
    }

    @Override
    public void upload(INDArray values) {
        checkShape(values, "models");
        INDArray host = HostArrays.rowMajorFloats(values);
        backend.upload(HostArrays.pointer(host), inUse(models.models()));
        Reference.reachabilityFence(host);
    }

    @Override
    public void download(INDArray into) {
        checkShape(into, "models");
        read(inUse(models.models()), into);
    }

    /** The rows in use of an [n, p] array. */
    private DeviceArray inUse(DeviceArray rows) {
        return rows.slice(0, models.rowsInUse() * numParams);
    }

    /** Into the array's own memory when it can be written there, else through a Java array. */
    private void read(DeviceArray from, INDArray into) {
        if (HostArrays.writable(into)) {
            backend.download(from, HostArrays.pointer(into));
        } else {
            float[] values = new float[(int) into.length()];
            backend.download(from, values, 0);
            into.assign(Nd4j.createFromArray(values).reshape(into.shape()));
        }
    }

    @Override
    public double[] clippedSums(INDArray features, INDArray labels, INDArray mask, INDArray featureSquaredNorms, double clip) {
        int n = models.rowsInUse();
        if (features.rank() != 3 || features.size(0) != n || labels.rank() != 3 || labels.size(0) != n
                || labels.size(1) != features.size(1)) {
            throw new IllegalArgumentException("a round's batch is features [" + n + ", b, nIn] and labels [" + n
                    + ", b, k], got " + Arrays.toString(features.shape()) + " and " + Arrays.toString(labels.shape()));
        }
        int b = (int) features.size(1);
        boolean clipping = !Double.isInfinite(clip);
        INDArray x = HostArrays.rowMajorFloats(features);
        INDArray y = HostArrays.rowMajorFloats(labels);
        INDArray m = mask == null ? null : HostArrays.rowMajorFloats(mask);
        INDArray xSq = featureSquaredNorms == null || !clipping ? null : HostArrays.rowMajorFloats(featureSquaredNorms);
        if (b == 0) {
            models.loadBatch(new float[0], new float[0], null, null, 0);
        } else {
            models.loadBatch(HostArrays.pointer(x), HostArrays.pointer(y), m == null ? null : HostArrays.pointer(m),
                    xSq == null ? null : HostArrays.pointer(xSq), b);
        }
        // the pointers do not keep the arrays (copies, possibly) alive: they must outlive the copies
        Reference.reachabilityFence(x);
        Reference.reachabilityFence(y);
        Reference.reachabilityFence(m);
        Reference.reachabilityFence(xSq);
        return sumsOfLoadedBatch(clip);
    }

    private double[] sumsOfLoadedBatch(double clip) {
        int n = models.rowsInUse();
        models.clippedSums((float) clip);
        models.lossSums(lossSums);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = lossSums[i];
        }
        return out;
    }

    @Override
    public boolean holdData(INDArray features, INDArray labels, INDArray featureSquaredNorms) {
        long rows = features.size(0);
        if (features.rank() != 2 || labels.rank() != 2 || labels.size(0) != rows
                || (featureSquaredNorms != null && featureSquaredNorms.length() != rows)) {
            throw new IllegalArgumentException("the data to keep is features [N, nIn], labels [N, k] and squared norms [N],"
                    + " got " + Arrays.toString(features.shape()) + ", " + Arrays.toString(labels.shape()) + " and "
                    + (featureSquaredNorms == null ? "none" : Arrays.toString(featureSquaredNorms.shape())));
        }
        if (refuseData || rows >= 1 << 24
                || rows * Math.max(models.model().nIn(), models.model().nOut()) > StackedDenseModels.MAX_VALUES) {
            return false;
        }
        INDArray x = HostArrays.rowMajorFloats(features);
        INDArray y = HostArrays.rowMajorFloats(labels);
        INDArray sq = featureSquaredNorms == null ? null : HostArrays.rowMajorFloats(featureSquaredNorms);
        boolean held = reserving(StackedDenseModels.bytesToHold(models.model(), rows), () -> models.holdData(
                HostArrays.pointer(x), HostArrays.pointer(y), sq == null ? null : HostArrays.pointer(sq), (int) rows));
        Reference.reachabilityFence(x);
        Reference.reachabilityFence(y);
        Reference.reachabilityFence(sq);
        return held;
    }

    /**
     * Runs {@code allocate} when {@code bytes} take at most half the GPU's free memory (the rest stays for batches and
     * work space), looking and allocating with no other block of this JVM doing the same on that GPU in between; true
     * when it ran. The reference backend always has room.
     */
    private boolean reserving(long bytes, Runnable allocate) {
        if (!(backend instanceof org.dpdl4j.cuda.device.CudaBackend gpu)) {
            allocate.run();
            return true;
        }
        return gpu.reserving(() -> {
            if (bytes > gpu.freeBytes() / 2) {
                return false;
            }
            allocate.run();
            return true;
        });
    }

    /** Makes {@link #holdData} keep nothing, as on a device without room for the data (the host-batch path's tests). */
    void refuseToHoldData() {
        this.refuseData = true;
    }

    @Override
    public double[] clippedSums(int[] rows, int batch, float[] mask, double clip) {
        int held = models.heldRows();
        float[] index = new float[rows.length];
        for (int e = 0; e < rows.length; e++) {
            if (rows[e] < 0 || rows[e] >= held) {
                throw new IllegalArgumentException("row " + rows[e] + " is not a row of the " + held + " rows kept on the"
                        + " device");
            }
            index[e] = rows[e];
        }
        if (mask != null && mask.length != rows.length) {
            throw new IllegalArgumentException("one mask value per row: " + rows.length + " expected, got " + mask.length);
        }
        models.gatherBatch(index, mask, batch, !Double.isInfinite(clip));
        return sumsOfLoadedBatch(clip);
    }

    @Override
    public void scaleRows(double[] factors) {
        models.scaleRows(floats(factors));
    }

    @Override
    public void clipRows(double clip) {
        models.clipRows((float) clip);
    }

    @Override
    public void updatesFrom(INDArray start) {
        if (start.length() != numParams) {
            throw new IllegalArgumentException("a model has " + numParams + " parameters, got " + start.length());
        }
        INDArray host = HostArrays.rowMajorFloats(start);
        models.updatesFrom(HostArrays.pointer(host));
        Reference.reachabilityFence(host);
    }

    @Override
    public void weightedSum(double[] weights, boolean withNoise, INDArray into) {
        if (into.length() != numParams) {
            throw new IllegalArgumentException("the sum has " + numParams + " values, got " + Arrays.toString(into.shape()));
        }
        useNoise(withNoise, models.rowsInUse());
        float[] sum = new float[(int) numParams];
        models.weightedSum(floats(weights), withNoise, sum);
        into.assign(Nd4j.createFromArray(sum).reshape(into.shape()).castTo(into.dataType()));
    }

    @Override
    public double[] rowNorms() {
        float[] norms = new float[models.rowsInUse()];
        models.rowNorms(norms);
        double[] out = new double[norms.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = norms[i];
        }
        return out;
    }

    @Override
    public void addRows(int from, int to, int rows, double factor) {
        models.addRows(from, to, rows, (float) factor);
    }

    @Override
    public void accumulate(double scale) {
        models.accumulate((float) scale);
    }

    @Override
    public void downloadSums(INDArray into) {
        int rows = sumRows(into, "running sums");
        if (!models.hasSums()) {
            into.assign(0);   // none accumulated yet, and none allocated for reading them
            return;
        }
        read(models.sums(rows), into);
    }

    @Override
    public void uploadSums(INDArray values) {
        DeviceArray sums = models.sums(sumRows(values, "running sums"));
        INDArray host = HostArrays.rowMajorFloats(values);
        backend.upload(HostArrays.pointer(host), sums);
        Reference.reachabilityFence(host);
    }

    @Override
    public void meanOfSums(boolean withNoise, INDArray into) {
        if (into.length() != numParams) {
            throw new IllegalArgumentException("the mean has " + numParams + " values, got " + Arrays.toString(into.shape()));
        }
        if (withNoise) {
            useNoise(true, models.sumRows());
        }
        float[] mean = new float[(int) numParams];
        models.meanOfSums(withNoise, mean);
        into.assign(Nd4j.createFromArray(mean).reshape(into.shape()).castTo(into.dataType()));
    }

    /** The rows of an [k, p] array of running sums. */
    private int sumRows(INDArray a, String what) {
        if (a.rank() != 2 || a.size(1) != numParams || a.size(0) < 1 || a.size(0) > models.nodes()) {
            throw new IllegalArgumentException("the " + what + " must be [k, " + numParams + "] with 1 <= k <= "
                    + models.nodes() + ", got " + Arrays.toString(a.shape()));
        }
        return (int) a.size(0);
    }

    @Override
    public void uploadNoise(INDArray noise) {
        if (noise.rank() != 2 || noise.size(1) != numParams || noise.size(0) < 1 || noise.size(0) > models.nodes()) {
            throw new IllegalArgumentException("the noise must be [k, " + numParams + "] with 1 <= k <= " + models.nodes()
                    + ", got " + Arrays.toString(noise.shape()));
        }
        INDArray host = HostArrays.rowMajorFloats(noise);
        backend.upload(HostArrays.pointer(host), models.noise().slice(0, noise.size(0) * numParams));
        Reference.reachabilityFence(host);
        filledNoise((int) noise.size(0));
    }

    @Override
    public void downloadNoise(INDArray into) {
        if (into.rank() != 2 || into.size(1) != numParams || into.size(0) < 1 || into.size(0) > noiseRows) {
            throw new IllegalArgumentException("the noise on the device is [" + noiseRows + ", " + numParams + "]: read at"
                    + " most its rows, got room for " + Arrays.toString(into.shape()));
        }
        read(models.noise().slice(0, into.size(0) * numParams), into);
    }

    /** Records that the first {@code rows} noise rows hold a fresh draw, which one noisy operation may then add. */
    private void filledNoise(int rows) {
        noiseRows = rows;
        noiseFresh = true;
    }

    /**
     * Takes the fresh noise for an operation that adds {@code rows} noise rows: a round's noise is added once, and only
     * after it was filled for at least those rows (never an earlier round's).
     */
    private void useNoise(boolean withNoise, int rows) {
        if (!withNoise) {
            return;
        }
        if (!noiseFresh || noiseRows < rows) {
            throw new IllegalStateException("no fresh noise for " + rows + " rows on the device (" + (noiseFresh ? noiseRows
                    + " rows were filled" : "it was added already, or never filled") + "): call uploadNoise(...) or"
                    + " drawPhiloxNoise(...) before each noisy operation");
        }
        noiseFresh = false;
    }

    @Override
    public void step(boolean withNoise, double lr, double weightDecay) {
        useNoise(withNoise, models.rowsInUse());
        models.step(withNoise, (float) lr, decay(lr, weightDecay));
    }

    /** The factor weight decay shrinks the models by before a step. */
    private static float decay(double lr, double weightDecay) {
        return weightDecay > 0 ? (float) (1.0 - lr * weightDecay) : 1f;
    }

    @Override
    public void mixing(int[] rowStarts, int[] columns, double[] values) {
        models.mixing(rowStarts, columns, floats(values));
    }

    private static float[] floats(double[] values) {
        float[] out = new float[values.length];
        for (int k = 0; k < values.length; k++) {
            out[k] = (float) values[k];
        }
        return out;
    }

    @Override
    public void mix() {
        models.mix();
    }

    @Override
    public boolean pairwiseIncidence(int[] rowStarts, int[] columns, double[] values, int edges) {
        if ((long) edges * numParams > StackedDenseModels.MAX_VALUES || edges >= 1 << 24) {
            return false;
        }
        float[] weights = floats(values);
        return reserving(StackedDenseModels.bytesForPairwise(models.model(), edges),
                () -> models.pairwiseIncidence(rowStarts, columns, weights, edges));
    }

    @Override
    public void drawPhiloxNoise(long seed, long round, double sigmaPrivate, long pairwiseRound, double sigmaPairwise) {
        models.drawPhiloxNoise(seed, PhiloxNoiseStreams.rowStride(), PhiloxNoiseStreams.privateStream(0, round),
                sigmaPrivate, PhiloxNoiseStreams.pairwiseStream(0, pairwiseRound), sigmaPairwise);
        filledNoise(models.rowsInUse());
    }

    @Override
    public void drawPhiloxNoise(long seed, long round, int[] parties, double sigmaPrivate, int[] edges, long pairwiseRound,
                                double sigmaPairwise) {
        models.drawPhiloxNoiseListed(seed, PhiloxNoiseStreams.rowStride(), PhiloxNoiseStreams.privateStream(0, round),
                parties, sigmaPrivate, PhiloxNoiseStreams.pairwiseStream(0, pairwiseRound), edges, sigmaPairwise);
        filledNoise(models.rowsInUse());
    }

    @Override
    public void drawPrivatePhiloxRows(long seed, long round, int[] parties, double sigma) {
        models.drawPhiloxListed(seed, PhiloxNoiseStreams.privateStream(0, round), PhiloxNoiseStreams.rowStride(), parties,
                sigma);
        filledNoise(parties.length);
    }

    @Override
    public void downloadGradients(INDArray into) {
        checkShape(into, "gradients");
        read(inUse(models.gradients()), into);
    }

    @Override
    public String describe() {
        String fit = "";
        if (backend instanceof org.dpdl4j.cuda.device.CudaBackend gpu) {
            long perNode = StackedDenseModels.bytesFor(models.model(), 1, 64);
            fit = String.format(java.util.Locale.ROOT, "; %.1f GiB free, room for about %d more such nodes (batch 64)",
                    gpu.freeBytes() / (double) (1L << 30), gpu.freeBytes() / perNode);
        }
        return models.nodes() + " node models of " + numParams + " parameters on " + backend.describe() + fit;
    }

    private void checkShape(INDArray a, String what) {
        int rows = models.rowsInUse();
        if (a.rank() != 2 || a.size(0) != rows || a.size(1) != numParams) {
            throw new IllegalArgumentException("the " + what + " must be [" + rows + ", " + numParams + "], got "
                    + Arrays.toString(a.shape()));
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Backend.freeThenClose(models::close, backend, ownsBackend);
    }
}
