package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.RowClipping;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.optim.PerExampleGradients;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.Objects;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;

/**
 * The machine side of mu^2-SGD for M machines at once (spec 4.2-4.3): each machine's private weighted
 * corrected-momentum estimate {@code dhat^i} as row i of an [M, p] matrix, updated by
 * <pre>
 *   q_t^i    = alpha_t grad f(x_t; z) - alpha_{t-1} grad f(x_{t-1}; z)      (the same fresh sample z at both points)
 *   dhat_t^i = dhat_{t-1}^i + Clip_S(q_t^i)                                  (S = +infinity, no clip, only without noise)
 * </pre>
 * The 2M gradients of a round come from one batched pass of {@link PerExampleGradients} over a [2M, p] matrix of
 * query points: one half holds {@code x_t} for every machine, the other {@code x_{t-1}}. The halves alternate
 * ({@link #moveTo}), so moving to the next point copies one half, not two. With a batch of b samples per machine
 * the gradients are batch means.
 *
 * <p>Because {@code alpha_t (1 - beta_t) = alpha_{t-1}} with {@code beta_t = 1/t}, {@code dhat_t / alpha_t} is
 * the usual corrected-momentum estimate {@code d_t = grad f(x_t; z_t) + (1 - beta_t)(d_{t-1} - grad f(x_{t-1}; z_t))},
 * and {@code dhat_t = sum_{tau <= t} q_tau}: each sample enters through one q only, which is what bounds the
 * sensitivity of every later message by {@code 2S}.
 *
 * <p>On a device ({@link #useDevice}) the same round runs there: the 2M query points as the rows of
 * {@link DeviceNodeModels} (rows {@code [0, M)} at {@code x_t}, {@code [M, 2M)} at {@code x_{t-1}}), the estimates as
 * its running sums; only the loss sums and the M increment norms come back each round, the estimates when read
 * ({@link #dhat}).
 */
public final class Mu2Machines {
    private final PerExampleGradients gradients;
    private final int machines;
    private final long p;
    private final double clip;
    private final DataType type;
    private final INDArray dhat;
    private final INDArray points;
    private final INDArray grad;
    private final INDArray[] pointHalves;
    private final INDArray[] gradHalves;
    private int current;
    private Staging staging;
    private INDArray lastLossSums;
    /** The query points x_t and x_{t-1} as [1, p] rows, wherever the round runs. */
    private final INDArray point;
    private final INDArray previousPoint;
    /** The 2M query points and the estimates on a device, or null on the CPU. */
    private DeviceNodeModels device;
    /** Whether {@code dhat} is older than the estimates on the device. */
    private boolean hostBehind;
    /** How many rounds of samples the device keeps ({@link #holdSamples}; 0: none), and each machine's batch in them. */
    private long heldRounds;
    private int heldBatch;

    /**
     * @param gradients the per-example gradient engine of the model
     * @param machines  M &gt;= 1
     * @param clip      the clip S of q, or {@link Double#POSITIVE_INFINITY} for none (runs without noise)
     */
    public Mu2Machines(PerExampleGradients gradients, int machines, double clip) {
        this.gradients = Objects.requireNonNull(gradients, "gradients");
        if (machines < 1) {
            throw new IllegalArgumentException("the number of machines M must be >= 1, got " + machines);
        }
        if (!(clip > 0)) {
            throw new IllegalArgumentException("the clip S of the increments must be > 0 (or +Infinity for none), got " + clip);
        }
        this.machines = machines;
        this.clip = clip;
        this.p = gradients.spec().numParams();
        this.type = gradients.spec().dataType();
        this.dhat = Nd4j.zeros(type, machines, p);
        this.points = Nd4j.zeros(type, 2L * machines, p);
        this.grad = Nd4j.zeros(type, 2L * machines, p);
        this.pointHalves = new INDArray[]{points.get(interval(0, machines), all()), points.get(interval(machines, 2L * machines), all())};
        this.gradHalves = new INDArray[]{grad.get(interval(0, machines), all()), grad.get(interval(machines, 2L * machines), all())};
        this.point = Nd4j.zeros(type, 1, p);
        this.previousPoint = Nd4j.zeros(type, 1, p);
    }

    /**
     * Runs the rounds from the next one on {@code chosen} (2M rows: both query points of every machine), which these
     * machines then close, or on the CPU when null; the estimates and query points move with them.
     */
    public void useDevice(DeviceNodeModels chosen) {
        if (chosen != null && chosen.nodes() != 2 * machines) {
            throw new IllegalArgumentException(machines + " machines take " + 2 * machines + " rows on the device (x_t and"
                    + " x_{t-1} for each), got " + chosen.nodes());
        }
        if (chosen == null && device == null) {
            return;
        }
        INDArray estimates = dhat();
        if (device != null) {
            device.close();
        }
        device = chosen;
        heldRounds = 0;
        if (device == null) {
            placeAt(point.dup(), previousPoint.dup());
        } else {
            device.uploadSums(estimates);
            placeOnDevice();
        }
    }

    /** Where the rounds run: the device's description, or null on the CPU. */
    public String deviceDescription() {
        return device == null ? null : device.describe();
    }

    /** Whether the rounds run on a device. */
    public boolean onDevice() {
        return device != null;
    }

    private void placeOnDevice() {
        device.broadcast(point, 0, machines);
        device.broadcast(previousPoint, machines, machines);
    }

    /**
     * Moves every machine to the new query point: the current point becomes the previous one ({@code x_{t-1}}) and
     * {@code x} ([p] or [1, p]) the current one ({@code x_t}).
     */
    public void moveTo(INDArray x) {
        INDArray row = asRow(x);
        previousPoint.assign(point);
        point.assign(row);
        if (device != null) {
            placeOnDevice();
            return;
        }
        current = 1 - current;
        pointHalves[current].putiRowVector(row);
    }

    /** Sets both query points explicitly, e.g. to replay recorded points or to resume. */
    public void placeAt(INDArray x, INDArray previous) {
        point.assign(asRow(x));
        previousPoint.assign(asRow(previous));
        if (device != null) {
            placeOnDevice();
            return;
        }
        pointHalves[current].putiRowVector(point);
        pointHalves[1 - current].putiRowVector(previousPoint);
    }

    /**
     * One round of every machine at explicitly given query points: {@link #placeAt} then {@link #accumulate(long, INDArray, INDArray)}.
     *
     * @param x        the query point x_t ([p] or [1, p])
     * @param previous x_{t-1} (any value when t = 1: its weight alpha_0 is 0)
     */
    public MomentumStep accumulate(INDArray x, INDArray previous, long t, INDArray features, INDArray labels) {
        placeAt(x, previous);
        return accumulate(t, features, labels);
    }

    /**
     * One round of every machine at the current query points: gradients at {@code x_t} and {@code x_{t-1}} on this
     * round's fresh samples, then {@code dhat += Clip(q)}.
     *
     * @param t        round index, &gt;= 1
     * @param features [M, b, nIn] the samples of the round, machine i in slice i
     * @param labels   [M, b, k]
     * @return what the round measured
     */
    public MomentumStep accumulate(long t, INDArray features, INDArray labels) {
        if (t < 1) {
            throw new IllegalArgumentException("round index t must be >= 1, got " + t);
        }
        if (features.rank() != 3 || features.size(0) != machines) {
            throw new IllegalArgumentException("features must have shape [" + machines + ", batch, nIn], got "
                    + Arrays.toString(features.shape()));
        }
        long b = features.size(1);
        Staging in = stage(features, labels);
        if (device != null) {
            return accumulateOnDevice(t, b, in);
        }
        ClippedBatch batch = gradients.clippedSum(points, in.features(), in.labels(), null, Double.POSITIVE_INFINITY, grad);
        // q / (alpha_t / b) = sum grad(x_t) - (alpha_{t-1} / alpha_t) sum grad(x_{t-1}), in place; then
        // dhat += (alpha_t / b) Clip(q): two passes over the [M, p] rows besides the norms.
        INDArray scaledQ = gradHalves[current];
        if (t > 1) {
            Nd4j.getBlasWrapper().level1().axpy(scaledQ.length(), -Mu2Iterates.alpha(t - 1) / Mu2Iterates.alpha(t),
                    gradHalves[1 - current], scaledQ);
        }
        double scale = Mu2Iterates.alpha(t) / b;
        INDArray norms = RowClipping.clip(scaledQ, clip / scale);
        double maxNorm = norms.maxNumber().doubleValue() * scale;
        long clipped = maxNorm > clip ? RowClipping.countAbove(norms, clip / scale) : 0;
        Nd4j.getBlasWrapper().level1().axpy(dhat.length(), scale, scaledQ, dhat);
        lastLossSums = batch.lossSums().get(interval(current * (long) machines, (current + 1L) * machines));
        return new MomentumStep(meanLoss(lastLossSums, b), maxNorm, clipped);
    }

    /**
     * Keeps every round's samples on the device, round-major ([T, M, b, nIn] features and [T, M, b, k] labels: round t's
     * M b samples the t-th block), so that a round sends only which rows make it ({@link #accumulateHeld}); false,
     * keeping nothing, when the device has no room for them (rounds then copy their samples in).
     */
    public boolean holdSamples(INDArray roundMajorFeatures, INDArray roundMajorLabels) {
        if (device == null) {
            throw new IllegalStateException("the machines run on the CPU: no device keeps their samples");
        }
        if (roundMajorFeatures.rank() != 4 || roundMajorFeatures.size(1) != machines || roundMajorLabels.rank() != 4
                || roundMajorLabels.size(0) != roundMajorFeatures.size(0) || roundMajorLabels.size(1) != machines
                || roundMajorLabels.size(2) != roundMajorFeatures.size(2)) {
            throw new IllegalArgumentException("round-major samples are features [T, " + machines + ", b, nIn] and labels"
                    + " [T, " + machines + ", b, k], got " + Arrays.toString(roundMajorFeatures.shape()) + " and "
                    + Arrays.toString(roundMajorLabels.shape()));
        }
        long rounds = roundMajorFeatures.size(0);
        long b = roundMajorFeatures.size(2);
        long rows = rounds * machines * b;
        heldRounds = 0;
        if (device.holdData(roundMajorFeatures.reshape('c', rows, roundMajorFeatures.size(3)),
                roundMajorLabels.reshape('c', rows, roundMajorLabels.size(3)), null)) {
            heldRounds = rounds;
            heldBatch = (int) b;
        }
        return heldRounds > 0;
    }

    /** Whether the device keeps the samples of every round ({@link #holdSamples}). */
    public boolean holdsSamples() {
        return device != null && heldRounds > 0;
    }

    /**
     * {@link #accumulate(long, INDArray, INDArray)} on the samples of round t the device keeps ({@link #holdSamples}):
     * the same round, with only which rows make it (both query points on the same samples) sent there.
     */
    public MomentumStep accumulateHeld(long t) {
        if (!holdsSamples()) {
            throw new IllegalStateException("the device keeps no samples: holdSamples(...) first, or pass the round's samples");
        }
        if (t < 1 || t > heldRounds) {
            throw new IllegalArgumentException("the device keeps the samples of rounds 1 to " + heldRounds + ", got round " + t);
        }
        int perHalf = machines * heldBatch;
        long first = (t - 1) * perHalf;
        int[] rows = new int[2 * perHalf];
        for (int e = 0; e < perHalf; e++) {
            rows[e] = (int) (first + e);   // machine i's j-th sample at i b + j, at x_t and again at x_{t-1}
            rows[perHalf + e] = rows[e];
        }
        return momentumOnDevice(t, heldBatch, device.clippedSums(rows, heldBatch, null, Double.POSITIVE_INFINITY));
    }

    /** The round of {@link #accumulate(long, INDArray, INDArray)} on the device, with the same arithmetic. */
    private MomentumStep accumulateOnDevice(long t, long b, Staging in) {
        return momentumOnDevice(t, b, device.clippedSums(in.features(), in.labels(), null, null, Double.POSITIVE_INFINITY));
    }

    /** The rest of a device round once its 2M gradient sums are in the gradient rows ({@code sums}: their losses). */
    private MomentumStep momentumOnDevice(long t, long b, double[] sums) {
        if (t > 1) {
            device.addRows(machines, 0, machines, -Mu2Iterates.alpha(t - 1) / Mu2Iterates.alpha(t));
        }
        double scale = Mu2Iterates.alpha(t) / b;
        device.useRows(machines);
        try {
            device.clipRows(clip / scale);
            double[] norms = device.rowNorms();
            double largest = 0;
            long clipped = 0;
            for (double norm : norms) {
                largest = Math.max(largest, norm);
                clipped += norm > clip / scale ? 1 : 0;
            }
            device.accumulate(scale);
            hostBehind = true;
            lastLossSums = Nd4j.createFromArray(Arrays.copyOf(sums, machines)).castTo(type);
            return new MomentumStep(meanLoss(lastLossSums, b), largest * scale, clipped);
        } finally {
            device.useRows(2 * machines);
        }
    }

    /**
     * {@link #meanMessageOnDevice(INDArray, INDArray)} with the machines' noise drawn on the device: row i from machine
     * i's private stream of {@code round} of Philox streams keyed by {@code philoxSeed}, times {@code sigma}.
     */
    public void meanMessageOnDevice(long philoxSeed, long round, double sigma, INDArray into) {
        if (device == null) {
            throw new IllegalStateException("the machines run on the CPU: draw and average their messages there");
        }
        device.useRows(machines);
        try {
            device.drawPhiloxNoise(philoxSeed, round, sigma, 0, 0.0);
            device.meanOfSums(true, into);
        } finally {
            device.useRows(2 * machines);
        }
    }

    /**
     * On the device: the mean over the machines of {@code dhat^i + noise^i} into {@code into} ([1, p]; {@code noise}
     * [M, p], or null for none), what a server averaging the machines' messages gets, with only the mean copied back.
     */
    public void meanMessageOnDevice(INDArray noise, INDArray into) {
        if (device == null) {
            throw new IllegalStateException("the machines run on the CPU: average their messages there");
        }
        if (noise != null) {
            device.uploadNoise(noise);
        }
        device.meanOfSums(noise != null, into);
    }

    /**
     * The round's examples in both halves (the same sample at x_t and at x_{t-1}) in persistent buffers: copying a
     * contiguous block into them is several times cheaper than concatenating strided views, and allocates nothing.
     */
    private Staging stage(INDArray features, INDArray labels) {
        if (labels.rank() != 3 || labels.size(0) != machines || labels.size(1) != features.size(1)) {
            throw new IllegalArgumentException("labels must have shape [" + machines + ", " + features.size(1) + ", k], got "
                    + Arrays.toString(labels.shape()));
        }
        if (staging == null || staging.features().size(1) != features.size(1) || staging.features().size(2) != features.size(2)
                || staging.labels().size(2) != labels.size(2)) {
            // Persistent state: allocated outside any workspace the caller may have open.
            try (var outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
                staging = new Staging(Nd4j.create(type, 2L * machines, features.size(1), features.size(2)),
                        Nd4j.create(type, 2L * machines, labels.size(1), labels.size(2)));
            }
        }
        for (INDArray[] pair : new INDArray[][]{{staging.features(), features}, {staging.labels(), labels}}) {
            pair[0].get(interval(0, machines), all(), all()).assign(pair[1]);
            pair[0].get(interval(machines, 2L * machines), all(), all()).assign(pair[1]);
        }
        return staging;
    }

    private record Staging(INDArray features, INDArray labels) {
    }

    /** The point as a [1, p] row of the model's type, without a new array when it already is one. */
    private INDArray asRow(INDArray point) {
        if (point.length() != p) {
            throw new IllegalArgumentException("a query point has " + point.length() + " entries but the model has " + p + " parameters");
        }
        INDArray row = point.rank() == 2 && point.size(0) == 1 ? point : point.reshape(1, p);
        return row.dataType() == type ? row : row.castTo(type);
    }

    /**
     * The mean loss of a round from every machine's summed loss at {@code x_t} ([M], machine order) and the batch size:
     * one reduction over the machines, the same whether the sums come from this object or from blocks of machines.
     */
    public static double meanLoss(INDArray lossSums, long batchSize) {
        return lossSums.sumNumber().doubleValue() / (lossSums.length() * (double) batchSize);
    }

    /** Each machine's summed loss at {@code x_t} in the last round ([M]; a view, valid until the next round). */
    public INDArray lastLossSums() {
        return lastLossSums;
    }

    /**
     * The machines' estimates {@code dhat} as an [M, p] matrix (live view: copy it to keep it), copied from the device
     * when the rounds run there.
     */
    public INDArray dhat() {
        if (hostBehind) {
            device.downloadSums(dhat);
            hostBehind = false;
        }
        return dhat;
    }

    /**
     * Overwrites every machine's estimate ([M, p]: e.g. what a run's driver holds for a block of its machines), here and
     * on the device.
     */
    public void setEstimates(org.dpdl4j.runtime.engine.Rows estimates) {
        estimates.copyInto(dhat, 0);
        hostBehind = false;
        if (device != null) {
            device.uploadSums(dhat);
        }
    }

    public int machines() {
        return machines;
    }

    /** The safety clip S of q ({@code +Infinity} when off). */
    public double clip() {
        return clip;
    }

    public PerExampleGradients gradients() {
        return gradients;
    }

    /** Restores the estimates from a checkpoint. */
    void restore(INDArray saved) {
        if (saved.rank() != 2 || saved.size(0) != machines || saved.size(1) != p) {
            throw new IllegalArgumentException("checkpoint holds estimates of shape " + Arrays.toString(saved.shape())
                    + " but this run has [" + machines + ", " + p + "]");
        }
        dhat.assign(saved);
        hostBehind = false;
        if (device != null) {
            device.uploadSums(dhat);
        }
    }

    /** The machines' noise rows the device drew for the last mean message ([M, p]), copied into {@code into}. */
    public void drawnNoise(INDArray into) {
        if (device == null) {
            throw new IllegalStateException("the machines run on the CPU: no noise was drawn on a device");
        }
        device.downloadNoise(into);
    }

    /** Frees the device's memory when the rounds run there. */
    void close() {
        if (device != null) {
            device.close();
            device = null;
        }
    }

    /**
     * What one round of the machines measured.
     *
     * @param meanLoss        mean loss of the round's fresh samples at {@code x_t}, before the update (a progressive
     *                        validation loss: every sample is seen once)
     * @param maxNormQ        the largest {@code ||q_t^i||} before clipping
     * @param clippedMachines how many machines' q was scaled down by the safety clip
     */
    public record MomentumStep(double meanLoss, double maxNormQ, long clippedMachines) {
    }
}
