package org.dpdl4j.cuda.engine;

import java.util.ArrayList;
import java.util.List;

import org.bytedeco.javacpp.FloatPointer;

/**
 * The n node models of a multi-party run (one {@link DenseModel}, its parameters the rows of an [n, p] matrix) on a
 * {@link Backend}, and a round's work on all of them at once: every node's clipped gradient sum over its own batch,
 * the division into local gradients, user-level clipping, the noisy step and gossip as a sparse product. No per-node
 * loop on the host: each layer's products are one strided batched product over the nodes, and every per-example kernel
 * of the single-model step runs unchanged over the n b examples of the round.
 *
 * <p>Layouts. Node i's parameters (DL4J's flat layout) start at {@code i p}; so does its gradient. A round's batch is
 * padded to b examples per node: features row-major [n, b, nIn], labels row-major [n, b, k], a mask [n, b] (1 for a
 * real example, 0 for padding) and optionally each example's squared feature norm [n, b]. Activations and errors are
 * column-major [n b, units] over all examples (node i's rows {@code i b .. i b + b - 1}), so node i's block is a
 * submatrix with leading dimension n b at offset {@code i b}.
 *
 * <p>Not thread-safe; buffers grow to the largest batch seen.
 */
public final class StackedDenseModels implements AutoCloseable {
    /** Indices of the mixing matrix are kept as floats, exact below 2^24. */
    private static final int EXACT_FLOAT_INDEX = 1 << 24;
    /** The most values one array of a launch may hold ({@link KernelSource#MAX_ELEMENTS}). */
    public static final long MAX_VALUES = KernelSource.MAX_ELEMENTS;

    private final Backend backend;
    private final DenseModel model;
    private boolean closed;
    private final int nodes;
    private final long p;
    private final int[] errorColumn;
    private final int totalUnits;
    private DeviceArray params;
    private DeviceArray mixed;
    private final DeviceArray grad;
    private final DeviceArray noise;
    /** Per-node scratch: squared norms, norms, factors; then one scalar. */
    private final DeviceArray nodeSq;
    private final DeviceArray nodeNorms;
    /** Work space of the row norms' lanes ({@link Kernels#addRowDots}). */
    private final DeviceArray nodeParts;
    private final DeviceArray nodeFactors;
    private final DeviceArray scalar;
    private final DeviceArray lossSums;
    private final DeviceArray[] activations;
    private DeviceArray errors;
    private DeviceArray x;
    private DeviceArray y;
    private DeviceArray mask;
    private DeviceArray xSq;
    private DeviceArray sq;
    private DeviceArray norms;
    private DeviceArray loss;
    private DeviceArray ones;
    private DeviceArray mixStart;
    private DeviceArray mixColumns;
    private DeviceArray mixWeights;
    private DeviceArray nodeOnes;
    /** Running sums of scaled gradient rows ({@link #accumulate}); null until used. */
    private DeviceArray sums;
    /** A combination of rows ({@link #meanOfSums}, {@link #weightedSum}); null until used. */
    private DeviceArray combined;
    /** Data kept on the device ({@link #holdData}): features, labels, squared feature norms (or null); null until held. */
    private DeviceArray heldFeatures;
    private DeviceArray heldLabels;
    private DeviceArray heldNorms;
    private int heldRows;
    /** The rows of the held data that make the round's batch. */
    private DeviceArray index;
    /** Decor's incidence matrix B [n, |E|] in compressed rows, and the round's edge rows U; null until set. */
    private DeviceArray incidenceStart;
    private DeviceArray incidenceColumns;
    private DeviceArray incidenceWeights;
    private DeviceArray edgeRows;
    private int edges;
    /** Listed party or edge ids ({@link #drawPhiloxListed}, {@link #drawPhiloxNoiseListed}), two floats each; null until used. */
    private DeviceArray partyIds;
    /** The models the next operations act on: the first {@code active} rows (all of them unless {@link #useRows}). */
    private int active;
    private int capacity;
    private int b;
    private boolean masked;
    private boolean hasFeatureNorms;
    private final float[] nodeHost;

    /**
     * Room for {@code nodes} models of {@code model} on {@code backend}, their parameters undefined until
     * {@link #models()} is written.
     *
     * @throws IllegalArgumentException when n p values do not fit one kernel launch ({@link #MAX_VALUES})
     */
    public StackedDenseModels(Backend backend, DenseModel model, int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("stacked models need at least one node, got " + nodes);
        }
        if ((long) nodes * model.numParams() > MAX_VALUES) {
            throw new IllegalArgumentException(nodes + " models of " + model.numParams() + " parameters are "
                    + (long) nodes * model.numParams() + " values, more than the " + MAX_VALUES + " one device array holds: use fewer"
                    + " nodes per device (the Spark engine's blocks) or a smaller model");
        }
        this.backend = backend;
        this.model = model;
        this.nodes = nodes;
        this.p = model.numParams();
        this.errorColumn = new int[model.layers().size()];
        int t = 0;
        for (int l = 0; l < errorColumn.length; l++) {
            errorColumn[l] = t;
            t += model.layers().get(l).nOut();
        }
        this.totalUnits = t;
        this.activations = new DeviceArray[model.layers().size() - 1];
        long values = nodes * p;
        List<DeviceArray> made = new ArrayList<>();
        try {
            this.params = allocated(made, values);
            this.mixed = allocated(made, values);
            this.grad = allocated(made, values);
            this.noise = allocated(made, values);
            this.nodeSq = allocated(made, nodes);
            this.nodeNorms = allocated(made, nodes);
            this.nodeParts = allocated(made, (long) nodes * Kernels.lanes(p));
            this.nodeFactors = allocated(made, nodes);
            this.lossSums = allocated(made, nodes);
            this.scalar = allocated(made, 1);
            this.nodeOnes = allocated(made, nodes);
            backend.fill(nodeOnes, 1f);
        } catch (RuntimeException e) {   // e.g. out of device memory partway: what was allocated is freed, not lost
            for (DeviceArray a : made) {
                try {
                    backend.free(a);
                } catch (RuntimeException f) {
                    e.addSuppressed(f);
                }
            }
            throw e;
        }
        this.nodeHost = new float[nodes];
        this.active = nodes;
    }

    private DeviceArray allocated(List<DeviceArray> made, long length) {
        DeviceArray a = backend.allocate(length);
        made.add(a);
        return a;
    }

    public Backend backend() {
        return backend;
    }

    public DenseModel model() {
        return model;
    }

    public int nodes() {
        return nodes;
    }

    /** The [n, p] node models, row i node i's parameters: upload into it, download from it. */
    public DeviceArray models() {
        return params;
    }

    /**
     * Makes the next batches, clipped sums, scalings, clipping and steps act on the first {@code rows} models only (the
     * participants of a federated round, as many as the round drew); {@link #mix} still mixes all of them.
     */
    public void useRows(int rows) {
        if (rows < 1 || rows > nodes) {
            throw new IllegalArgumentException("between 1 and " + nodes + " rows can be used, got " + rows);
        }
        this.active = rows;
        this.b = 0;   // a batch loaded for another number of rows is no longer this one's
    }

    /** How many models the operations act on (see {@link #useRows}). */
    public int rowsInUse() {
        return active;
    }

    /**
     * Every model in use becomes {@code row} ([p], from host memory at the pointer's position): one product of depth
     * one from a staged copy, so each value is copied exactly.
     */
    public void broadcast(FloatPointer row) {
        broadcast(row, 0, active);
    }

    /** Models {@code [first, first + count)} become {@code row} ([p], from host memory at the pointer's position). */
    public void broadcast(FloatPointer row, int first, int count) {
        checkRows(first, count);
        DeviceArray staged = mixed.slice(0, p);
        backend.upload(row, staged);
        broadcastStaged(staged, first, count);
    }

    /** As {@link #broadcast(FloatPointer)} from a Java array of p values. */
    public void broadcast(float[] row) {
        broadcast(row, 0, active);
    }

    /** As {@link #broadcast(FloatPointer, int, int)} from a Java array of p values. */
    public void broadcast(float[] row, int first, int count) {
        if (row.length != p) {
            throw new IllegalArgumentException("a model has " + p + " parameters, got " + row.length);
        }
        checkRows(first, count);
        DeviceArray staged = mixed.slice(0, p);
        backend.upload(row, 0, staged);
        broadcastStaged(staged, first, count);
    }

    private void broadcastStaged(DeviceArray staged, int first, int count) {
        // column-major [p, count] = row (p x 1) times ones (1 x count)
        backend.blas().gemm(false, false, (int) p, count, 1, 1f, staged, (int) p, nodeOnes, 1, 0f,
                params.slice(first * p, count * p), (int) p);
    }

    private void checkRows(int first, int count) {
        if (first < 0 || count < 1 || first + count > nodes) {
            throw new IllegalArgumentException("rows [" + first + ", " + (first + count) + ") are not rows of the " + nodes
                    + " models");
        }
    }

    /** The [n, p] gradients of the last {@link #clippedSums}, as divided and clipped since. */
    public DeviceArray gradients() {
        return grad;
    }

    /** An [n, p] buffer for the round's noise, which {@link #step} adds when asked to. */
    public DeviceArray noise() {
        return noise;
    }

    /** Device memory a round of {@code batch} examples per node takes, in bytes, for sizing a run before it starts. */
    public static long bytesFor(DenseModel model, int nodes, int batch) {
        long units = 0;
        for (int l = 0; l + 1 < model.layers().size(); l++) {
            units += model.layers().get(l).nOut();
        }
        long perExample = model.nIn() + model.nOut() + model.totalUnits() + units + 7;
        return Float.BYTES * (4L * nodes * model.numParams() + (long) nodes * batch * perExample
                + (5L + Kernels.lanes(model.numParams())) * nodes + batch + 1);
    }

    /**
     * The most models of {@code model} whose rounds of {@code batch} examples per node fit in {@code freeBytes} of device
     * memory ({@link #bytesFor}), and one device array ({@link #MAX_VALUES}); 0 when not even one does.
     */
    public static int nodesThatFit(DenseModel model, int batch, long freeBytes) {
        long fixed = bytesFor(model, 0, batch);
        long perNode = bytesFor(model, 1, batch) - fixed;
        long n = freeBytes < fixed ? 0 : (freeBytes - fixed) / perNode;
        return (int) Math.min(n, MAX_VALUES / model.numParams());
    }

    /**
     * Copies a round's padded batch in (host memory from each pointer's position): features [n, b, nIn], labels
     * [n, b, k]; {@code mask} [n, b] or null when every node has b real examples; {@code featureSquaredNorms} [n, b] or
     * null (the first layer then computes them).
     */
    public void loadBatch(FloatPointer features, FloatPointer labels, FloatPointer mask, FloatPointer featureSquaredNorms,
                          int batch) {
        prepare(batch, mask != null, featureSquaredNorms != null);
        if (batch == 0) {
            return;
        }
        long examples = (long) active * batch;
        backend.upload(features, x.slice(0, examples * model.nIn()));
        backend.upload(labels, y.slice(0, examples * model.nOut()));
        if (mask != null) {
            backend.upload(mask, this.mask.slice(0, examples));
        }
        if (featureSquaredNorms != null) {
            backend.upload(featureSquaredNorms, xSq.slice(0, examples));
        }
    }

    /** As {@link #loadBatch(FloatPointer, FloatPointer, FloatPointer, FloatPointer, int)} from Java arrays. */
    public void loadBatch(float[] features, float[] labels, float[] mask, float[] featureSquaredNorms, int batch) {
        prepare(batch, mask != null, featureSquaredNorms != null);
        if (batch == 0) {
            return;
        }
        long examples = (long) active * batch;
        backend.upload(features, 0, x.slice(0, examples * model.nIn()));
        backend.upload(labels, 0, y.slice(0, examples * model.nOut()));
        if (mask != null) {
            backend.upload(mask, 0, this.mask.slice(0, examples));
        }
        if (featureSquaredNorms != null) {
            backend.upload(featureSquaredNorms, 0, xSq.slice(0, examples));
        }
    }

    /** Device memory that {@link #pairwiseIncidence} takes for a graph of {@code edges} edges (its rows of U), in bytes. */
    public static long bytesForPairwise(DenseModel model, long edges) {
        // U's rows and the incidence matrix's compressed rows (two non-zeros per edge)
        return Float.BYTES * edges * (model.numParams() + 4L);
    }

    /** Device memory that {@link #holdData} takes for {@code rows} examples, in bytes. */
    public static long bytesToHold(DenseModel model, long rows) {
        return Float.BYTES * rows * (model.nIn() + model.nOut() + 1L);
    }

    /**
     * Keeps the rows of all nodes' data on the device (host memory from each pointer's position): features [rows, nIn],
     * labels [rows, k], each row's squared feature norm [rows] or null; later batches are rows of it
     * ({@link #gatherBatch}), so a round copies in only which rows they are.
     */
    public void holdData(FloatPointer features, FloatPointer labels, FloatPointer squaredNorms, int rows) {
        if (rows < 1 || rows >= EXACT_FLOAT_INDEX || (long) rows * Math.max(model.nIn(), model.nOut()) > MAX_VALUES) {
            throw new IllegalArgumentException("between 1 and 2^24 - 1 rows of data, of at most " + MAX_VALUES + " values,"
                    + " can be kept on the device (their indices are held as floats), got " + rows + " rows");
        }
        freeHeld();
        heldFeatures = backend.allocate((long) rows * model.nIn());
        heldLabels = backend.allocate((long) rows * model.nOut());
        heldNorms = squaredNorms == null ? null : backend.allocate(rows);
        heldRows = rows;
        backend.upload(features, heldFeatures);
        backend.upload(labels, heldLabels);
        if (squaredNorms != null) {
            backend.upload(squaredNorms, heldNorms);
        }
    }

    /** How many rows of data are kept on the device (0 when none). */
    public int heldRows() {
        return heldRows;
    }

    /**
     * The round's padded batch as rows of the held data: {@code rows[i b + j]} is the row of node i's j-th example
     * (padding points at a row of zeros the held data ends with), {@code mask} [n, b] or null when every node has b
     * real examples; the squared feature norms are gathered too when held and {@code withNorms}.
     */
    public void gatherBatch(float[] rows, float[] mask, int batch, boolean withNorms) {
        if (heldRows == 0) {
            throw new IllegalStateException("no data is kept on the device: call holdData(...) first");
        }
        prepare(batch, mask != null, withNorms && heldNorms != null);
        if (batch == 0) {
            return;
        }
        int examples = active * batch;
        if (rows.length != examples) {
            throw new IllegalArgumentException(active + " nodes with " + batch + " examples each take " + examples
                    + " row indices, got " + rows.length);
        }
        for (float r : rows) {
            if (!(r >= 0 && r < heldRows) || r != Math.rint(r)) {
                throw new IllegalArgumentException("row " + r + " is not one of the " + heldRows + " rows kept on the device");
            }
        }
        backend.upload(rows, 0, index.slice(0, examples));
        Kernels k = backend.kernels();
        k.gatherRows(x, heldFeatures, index, examples, model.nIn());
        k.gatherRows(y, heldLabels, index, examples, model.nOut());
        if (hasFeatureNorms) {
            k.gatherRows(xSq, heldNorms, index, examples, 1);
        }
        if (mask != null) {
            backend.upload(mask, 0, this.mask.slice(0, examples));
        }
    }

    private void freeHeld() {
        for (DeviceArray a : new DeviceArray[]{heldFeatures, heldLabels, heldNorms}) {
            if (a != null) {
                backend.free(a);
            }
        }
        heldFeatures = heldLabels = heldNorms = null;
        heldRows = 0;
    }

    private void prepare(int batch, boolean withMask, boolean withNorms) {
        if (batch < 0) {
            throw new IllegalArgumentException("a batch has at least 0 examples per node, got " + batch);
        }
        long examples = (long) active * batch;
        if (examples * Math.max(totalUnits, Math.max(model.nIn(), model.nOut())) > MAX_VALUES) {
            throw new IllegalArgumentException(nodes + " nodes with " + batch + " examples each are more than one device"
                    + " array holds: use smaller batches or fewer nodes per device");
        }
        if (batch > capacity) {
            free();
            allocate(batch);
        }
        this.b = batch;
        this.masked = withMask;
        this.hasFeatureNorms = withNorms;
    }

    private void allocate(int batch) {
        long examples = (long) nodes * batch;
        for (int l = 0; l < activations.length; l++) {
            activations[l] = backend.allocate(examples * model.layers().get(l).nOut());
        }
        errors = backend.allocate(examples * totalUnits);
        x = backend.allocate(examples * model.nIn());
        y = backend.allocate(examples * model.nOut());
        mask = backend.allocate(examples);
        xSq = backend.allocate(examples);
        sq = backend.allocate(examples);
        norms = backend.allocate(examples);
        loss = backend.allocate(examples);
        index = backend.allocate(examples);
        ones = backend.allocate(batch);
        backend.fill(ones, 1f);
        capacity = batch;
    }

    private void free() {
        if (capacity == 0) {
            return;
        }
        for (DeviceArray a : activations) {
            backend.free(a);
        }
        for (DeviceArray a : new DeviceArray[]{errors, x, y, mask, xSq, sq, norms, loss, index, ones}) {
            backend.free(a);
        }
        capacity = 0;
    }

    /**
     * Every node's sum of per-example clipped gradients over its batch into {@link #gradients()}: one forward and one
     * backward pass for all nodes, each example's squared norm by ghost norms, every error row times
     * {@code min(1, C / ||g_i||)}, the sums {@code A^T diag(c) Delta} per layer. Padding contributes nothing.
     *
     * @param clip C &gt; 0, or +infinity for no clipping
     */
    public void clippedSums(float clip) {
        if (!(clip > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clip);
        }
        if (b == 0) {
            backend.fill(grad, 0f);
            backend.fill(lossSums, 0f);
            return;
        }
        int examples = active * b;
        forward();
        if (masked) {
            DenseLayer out = model.output();
            backend.kernels().scaleByExample(error(model.layers().size() - 1), examples * out.nOut(), 1, examples, mask);
            backend.kernels().scaleByExample(loss.slice(0, examples), examples, 1, examples, mask);
        }
        backward();
        if (Float.isFinite(clip)) {
            Kernels k = backend.kernels();
            for (int l = 0; l < model.layers().size(); l++) {
                DenseLayer layer = model.layers().get(l);
                boolean first = l == 0;
                k.addGhostNorms(sq, first ? x : activations[l - 1], first ? layer.nIn() : 1, first ? 1 : examples,
                        first && hasFeatureNorms ? xSq : null, error(l), examples, layer.nIn(), layer.nOut(),
                        layer.hasBias(), first);
            }
            k.clipErrors(errors.slice(0, (long) examples * totalUnits), examples, totalUnits, sq, norms, clip);
        }
        writeGradients();
        // each node's loss sum: the column sums of the losses seen as a column-major [b, n] matrix
        backend.blas().gemv(true, b, active, 1f, loss, b, ones, 0f, lossSums);
    }

    /** Every model's summed loss over its real examples, of the last {@link #clippedSums}, into {@code out[0, rows)}. */
    public void lossSums(float[] out) {
        backend.download(lossSums.slice(0, active), out, 0);
    }

    private void forward() {
        Blas blas = backend.blas();
        Kernels k = backend.kernels();
        int examples = active * b;
        for (int l = 0; l < model.layers().size(); l++) {
            DenseLayer layer = model.layers().get(l);
            boolean output = l == model.layers().size() - 1;
            DeviceArray z = output ? error(l) : activations[l].slice(0, (long) examples * layer.nOut());
            if (l == 0) {
                blas.gemmStridedBatched(true, false, b, layer.nOut(), layer.nIn(), 1f, x, layer.nIn(), (long) b * layer.nIn(),
                        weights(params, layer), layer.nIn(), p, 0f, z, examples, b, active);
            } else {
                blas.gemmStridedBatched(false, false, b, layer.nOut(), layer.nIn(), 1f, activations[l - 1], examples, b,
                        weights(params, layer), layer.nIn(), p, 0f, z, examples, b, active);
            }
            if (layer.hasBias()) {
                // z += 1 bias^T per node: a product of depth one, whose terms are the biases themselves
                blas.gemmStridedBatched(false, false, b, layer.nOut(), 1, 1f, ones, b, 0, params.slice(layer.biasOffset(),
                        (nodes - 1) * p + layer.nOut()), 1, p, 1f, z, examples, b, active);
            }
            k.biasActivation(z, null, examples * layer.nOut(), examples, layer.nOut(),
                    output ? Activation.IDENTITY : layer.activation());
            if (output) {
                k.outputLoss(model.loss(), z, y, loss, examples, layer.nOut());
            }
        }
    }

    private void backward() {
        Blas blas = backend.blas();
        Kernels k = backend.kernels();
        int examples = active * b;
        for (int l = model.layers().size() - 1; l > 0; l--) {
            DenseLayer layer = model.layers().get(l);
            DeviceArray below = error(l - 1);
            blas.gemmStridedBatched(false, true, b, layer.nIn(), layer.nOut(), 1f, error(l), examples, b,
                    weights(params, layer), layer.nIn(), p, 0f, below, examples, b, active);
            k.activationBackprop(below, activations[l - 1].slice(0, (long) examples * layer.nIn()), examples * layer.nIn(),
                    model.layers().get(l - 1).activation());
        }
    }

    private void writeGradients() {
        Blas blas = backend.blas();
        int examples = active * b;
        for (int l = 0; l < model.layers().size(); l++) {
            DenseLayer layer = model.layers().get(l);
            DeviceArray e = error(l);
            if (l == 0) {
                blas.gemmStridedBatched(false, false, layer.nIn(), layer.nOut(), b, 1f, x, layer.nIn(),
                        (long) b * layer.nIn(), e, examples, b, 0f, weights(grad, layer), layer.nIn(), p, active);
            } else {
                blas.gemmStridedBatched(true, false, layer.nIn(), layer.nOut(), b, 1f, activations[l - 1], examples, b, e,
                        examples, b, 0f, weights(grad, layer), layer.nIn(), p, active);
            }
            if (layer.hasBias()) {
                blas.gemmStridedBatched(true, false, layer.nOut(), 1, b, 1f, e, examples, b, ones, b, 0, 0f,
                        grad.slice(layer.biasOffset(), (nodes - 1) * p + layer.nOut()), layer.nOut(), p, active);
            }
        }
    }

    /** Row i of the gradients times {@code factors[i]}: the division into local gradients by each node's divisor. */
    public void scaleRows(float[] factors) {
        if (factors.length != active) {
            throw new IllegalArgumentException("one factor per model in use: " + active + " expected, got " + factors.length);
        }
        backend.upload(factors, 0, nodeFactors.slice(0, active));
        backend.kernels().scaleByExample(grad, (int) (active * p), (int) p, active, nodeFactors);
    }

    /**
     * User-level clipping: each node's whole gradient row to norm at most {@code clip} (+infinity: the norms only);
     * the norms before clipping are then {@link #rowNorms}.
     */
    public void clipRows(float clip) {
        Kernels k = backend.kernels();
        k.addRowDots(nodeSq, grad, grad, (int) p, active, true, nodeParts);
        k.clipFactors(nodeSq, nodeNorms, nodeFactors, active, clip);
        if (Float.isFinite(clip)) {
            k.scaleByExample(grad, (int) (active * p), (int) p, active, nodeFactors);
        }
    }

    /** The gradient rows' norms before the last {@link #clipRows}, into {@code out[0, rows)}. */
    public void rowNorms(float[] out) {
        backend.download(nodeNorms.slice(0, active), out, 0);
    }

    /**
     * Gradient rows {@code [to, to + rows)} plus {@code factor} times rows {@code [from, from + rows)} (the two ranges
     * apart), e.g. the difference of the gradients of the same samples at two points.
     */
    public void addRows(int from, int to, int rows, float factor) {
        checkRows(from, rows);
        checkRows(to, rows);
        if (from < to + rows && to < from + rows) {
            throw new IllegalArgumentException("rows [" + from + ", " + (from + rows) + ") and [" + to + ", " + (to + rows)
                    + ") overlap");
        }
        // noisySgd with divisor 1 and no noise leaves its second array as it is and subtracts lr times it from the first
        backend.kernels().noisySgd(grad.slice(to * p, rows * p), grad.slice(from * p, rows * p), null, (int) (rows * p),
                1f, -factor);
    }

    /**
     * Adds {@code scale} times the gradient rows in use to the running sums of as many rows (zero until the first call;
     * allocated then for the rows in use), as a corrected-momentum estimate sums its increments.
     */
    public void accumulate(float scale) {
        DeviceArray into = sums(active);
        backend.kernels().noisySgd(into, grad.slice(0, active * p), null, (int) (active * p), 1f, -scale);
    }

    /** Whether there are running sums ({@link #accumulate}, {@link #sums}). */
    public boolean hasSums() {
        return sums != null;
    }

    /** How many rows the running sums have (0 when there are none). */
    public int sumRows() {
        return sums == null ? 0 : (int) (sums.length() / p);
    }

    /**
     * The running sums of {@link #accumulate} ([rows, p]; upload into it, download from it), allocated as zeros for
     * {@code rows} rows when there are none yet.
     *
     * @throws IllegalStateException when they exist for another number of rows
     */
    public DeviceArray sums(int rows) {
        checkRows(0, rows);
        if (sums == null) {
            sums = backend.allocate(rows * p);
            backend.fill(sums, 0f);
        }
        long count = sums.length() / p;
        if (count != rows) {
            throw new IllegalStateException("the running sums have " + count + " rows, not " + rows);
        }
        return sums;
    }

    /**
     * The mean over the rows of the running sums plus, when {@code withNoise}, the same rows of {@link #noise()}: two
     * products with a vector of ones, p values downloaded into {@code out}.
     */
    public void meanOfSums(boolean withNoise, float[] out) {
        if (sums == null) {
            throw new IllegalStateException("no running sums: call accumulate(...) first");
        }
        int rows = (int) (sums.length() / p);
        combineRows(sums, rows, nodeOnes, 1f / rows, withNoise, out);
    }

    /**
     * The gradient rows in use become each model in use minus {@code start} ([p] in host memory): a copy of the models
     * and one product of depth one.
     */
    public void updatesFrom(FloatPointer start) {
        long count = active * p;
        DeviceArray updates = grad.slice(0, count);
        backend.fill(updates, 0f);
        // noisySgd with divisor 1 and no noise leaves its second array as it is and subtracts lr times it from the first
        backend.kernels().noisySgd(updates, params.slice(0, count), null, (int) count, 1f, -1f);
        DeviceArray staged = mixed.slice(0, p);
        backend.upload(start, staged);
        backend.blas().gemm(false, false, (int) p, active, 1, -1f, staged, (int) p, nodeOnes, 1, 1f, updates, (int) p);
    }

    /**
     * The sum over the gradient rows in use of {@code weights[i]} times row i, plus the same rows of {@link #noise()}
     * when {@code withNoise}: p values downloaded into {@code out}.
     */
    public void weightedSum(float[] weights, boolean withNoise, float[] out) {
        if (weights.length != active) {
            throw new IllegalArgumentException("one weight per model in use: " + active + " expected, got " + weights.length);
        }
        backend.upload(weights, 0, nodeFactors.slice(0, active));
        combineRows(grad, active, nodeFactors, 1f, withNoise, out);
    }

    /** {@code out} := alpha (rows^T w + [noise rows]^T w) for the first {@code count} rows, p values copied out. */
    private void combineRows(DeviceArray rows, int count, DeviceArray w, float alpha, boolean withNoise, float[] out) {
        if (out.length != p) {
            throw new IllegalArgumentException("the result has " + p + " values, got room for " + out.length);
        }
        if (combined == null) {
            combined = backend.allocate(p);
        }
        Blas blas = backend.blas();
        // row-major [count, p] is column-major [p, count]: the combination is it times w
        blas.gemv(false, (int) p, count, alpha, rows, (int) p, w, 0f, combined);
        if (withNoise) {
            blas.gemv(false, (int) p, count, alpha, noise, (int) p, w, 1f, combined);
        }
        backend.download(combined, out, 0);
    }

    /**
     * The local step of every node: {@code x := decay x}, then {@code x -= lr (g + noise)} with the noise of
     * {@link #noise()} when {@code withNoise}; the noisy gradient stays in {@link #gradients()}.
     */
    public void step(boolean withNoise, float lr, float decay) {
        Kernels k = backend.kernels();
        int count = (int) (active * p);
        if (decay != 1f) {
            nodeHost[0] = decay;
            backend.upload(nodeHost, 0, scalar);
            k.scaleByExample(params, count, count, 1, scalar);
        }
        k.noisySgd(params, grad, withNoise ? noise : null, count, 1f, lr);
    }

    /**
     * Sets the gossip matrix A ([n, n], compressed rows: row i's non-zeros at {@code [rowStart[i], rowStart[i + 1])},
     * in column order) that {@link #mix} applies.
     */
    public void mixing(int[] rowStart, int[] columns, float[] weights) {
        DeviceArray[] csr = compressedRows(rowStart, columns, weights, nodes);
        freeMixing();
        mixStart = csr[0];
        mixColumns = csr[1];
        mixWeights = csr[2];
    }

    /** An [n, columnCount] matrix in compressed rows, checked and copied in: row starts, columns, weights. */
    private DeviceArray[] compressedRows(int[] rowStart, int[] columns, float[] weights, int columnCount) {
        if (rowStart.length != nodes + 1 || rowStart[0] != 0 || rowStart[nodes] != columns.length
                || columns.length != weights.length) {
            throw new IllegalArgumentException("the matrix must be " + nodes + " compressed rows (" + (nodes + 1)
                    + " row starts from 0 to the number of non-zeros, one column and one weight per non-zero)");
        }
        if (columns.length >= EXACT_FLOAT_INDEX) {
            throw new IllegalArgumentException("a matrix of " + columns.length + " non-zeros is more than the engine"
                    + " indexes (2^24)");
        }
        float[] starts = new float[rowStart.length];
        for (int i = 0; i < rowStart.length; i++) {
            if (i > 0 && rowStart[i] < rowStart[i - 1]) {
                throw new IllegalArgumentException("row starts must not decrease: row " + (i - 1));
            }
            starts[i] = rowStart[i];
        }
        float[] cols = new float[columns.length];
        for (int k = 0; k < columns.length; k++) {
            if (columns[k] < 0 || columns[k] >= columnCount) {
                throw new IllegalArgumentException("column " + columns[k] + " is not one of the " + columnCount + " columns");
            }
            cols[k] = columns[k];
        }
        DeviceArray start = backend.allocate(starts.length);
        DeviceArray colArray = backend.allocate(Math.max(1, cols.length));
        DeviceArray weightArray = backend.allocate(Math.max(1, cols.length));
        backend.upload(starts, 0, start);
        if (cols.length > 0) {
            backend.upload(cols, 0, colArray.slice(0, cols.length));
            backend.upload(weights, 0, weightArray.slice(0, cols.length));
        }
        return new DeviceArray[]{start, colArray, weightArray};
    }

    /**
     * Sets the incidence matrix B ([n, edges], compressed rows as {@link #mixing} takes them) that combines the
     * round's pairwise rows into each node's noise ({@link #drawPhiloxNoise}).
     */
    public void pairwiseIncidence(int[] rowStart, int[] columns, float[] weights, int edges) {
        if (edges < 1 || edges >= EXACT_FLOAT_INDEX || (long) edges * p > MAX_VALUES) {
            throw new IllegalArgumentException(edges + " edges of " + p + " values are more than the engine's pairwise rows"
                    + " hold (" + MAX_VALUES + " values, 2^24 edges): draw the noise on the host (--noise seeded or secure)"
                    + " or split the nodes into blocks (--engine spark)");
        }
        DeviceArray[] csr = compressedRows(rowStart, columns, weights, edges);
        freeIncidence();
        incidenceStart = csr[0];
        incidenceColumns = csr[1];
        incidenceWeights = csr[2];
        edgeRows = backend.allocate(edges * p);
        this.edges = edges;
    }

    /**
     * The round's noise drawn on the device from Philox counters (seeded, NOT secure) into {@link #noise()}'s rows in
     * use: when {@code pairwiseStd > 0} (all rows in use), U's row e from stream {@code pairwiseFirst + e stride} and
     * the noise {@code B U}; then row i's private row from stream {@code privateFirst + i stride} added (when
     * {@code privateStd > 0}). Each row is
     * value j of its stream at index j, as the library's {@code PhiloxNoiseStreams} draws it on the host.
     */
    public void drawPhiloxNoise(long seed, long stride, long privateFirst, double privateStd, long pairwiseFirst,
                                double pairwiseStd) {
        Kernels k = backend.kernels();
        if (pairwiseStd > 0) {
            if (edgeRows == null) {
                throw new IllegalStateException("pairwise noise needs the incidence matrix: call pairwiseIncidence(...) first");
            }
            if (active != nodes) {
                throw new IllegalStateException("pairwise noise is drawn for all " + nodes + " rows, and " + active
                        + " are in use: call useRows(" + nodes + ") first");
            }
            backend.fill(edgeRows, 0f);
            k.addPhiloxRows(edgeRows, edges, (int) p, seed, pairwiseFirst, stride, pairwiseStd);
            k.mixRows(noise, incidenceStart, incidenceColumns, incidenceWeights, edgeRows, nodes, (int) p);
        } else {
            backend.fill(noise.slice(0, active * p), 0f);
        }
        if (privateStd > 0) {
            k.addPhiloxRows(noise, active, (int) p, seed, privateFirst, stride, privateStd);
        }
    }

    /**
     * {@link #drawPhiloxNoise} for listed parties and edges (a block of a run whose nodes and edges are numbered in the
     * whole run): when {@code pairwiseStd > 0}, row e of U from stream {@code pairwiseBase + edgeIds[e] stride}, combined
     * by the incidence rows of {@link #pairwiseIncidence} (its columns index {@code edgeIds}); then row r's private row
     * from stream {@code privateBase + nodeIds[r] stride} added (all n rows in use).
     */
    public void drawPhiloxNoiseListed(long seed, long stride, long privateBase, int[] nodeIds, double privateStd,
                                      long pairwiseBase, int[] edgeIds, double pairwiseStd) {
        if (nodeIds.length != nodes || active != nodes) {
            throw new IllegalArgumentException("the noise of all " + nodes + " rows is drawn here: " + nodes + " node ids"
                    + " and all rows in use, got " + nodeIds.length + " ids and " + active + " rows in use");
        }
        Kernels k = backend.kernels();
        if (pairwiseStd > 0) {
            if (edgeRows == null || edgeIds.length != edges) {
                throw new IllegalStateException("pairwise noise needs the incidence matrix of these " + edgeIds.length
                        + " edges: call pairwiseIncidence(...) first");
            }
            backend.fill(edgeRows, 0f);
            k.addPhiloxListed(edgeRows, edges, (int) p, seed, pairwiseBase, stride, ids(edgeIds), pairwiseStd);
            k.mixRows(noise, incidenceStart, incidenceColumns, incidenceWeights, edgeRows, nodes, (int) p);
        } else {
            backend.fill(noise, 0f);
        }
        if (privateStd > 0) {
            k.addPhiloxListed(noise, nodes, (int) p, seed, privateBase, stride, ids(nodeIds), privateStd);
        }
    }

    /** Party or edge ids, below 2^30, on the device as two exact floats each ({@code id >> 15}, {@code id & 32767}). */
    private DeviceArray ids(int[] parties) {
        float[] ids = new float[2 * parties.length];
        for (int r = 0; r < parties.length; r++) {
            if (parties[r] < 0 || parties[r] >= 1 << 30) {
                throw new IllegalArgumentException("party and edge ids are below 2^30, got " + parties[r]);
            }
            ids[2 * r] = parties[r] >> 15;
            ids[2 * r + 1] = parties[r] & 0x7FFF;
        }
        if (partyIds == null || partyIds.length() < ids.length) {
            if (partyIds != null) {
                backend.free(partyIds);
            }
            partyIds = backend.allocate(Math.max(ids.length, 2L * nodes));
        }
        DeviceArray into = partyIds.slice(0, ids.length);
        backend.upload(ids, 0, into);
        return into;
    }

    /**
     * The noise of listed parties drawn on the device from Philox counters (seeded, NOT secure) into the first
     * {@code parties.length} rows of {@link #noise()}: row r from stream {@code base + parties[r] stride}, times
     * {@code std} (the private rows of a round's sampled participants).
     */
    public void drawPhiloxListed(long seed, long base, long stride, int[] parties, double std) {
        if (parties.length < 1 || parties.length > nodes) {
            throw new IllegalArgumentException("between 1 and " + nodes + " parties' rows are drawn, got " + parties.length);
        }
        DeviceArray partyIdsOnDevice = ids(parties);
        DeviceArray rows = noise.slice(0, parties.length * p);
        backend.fill(rows, 0f);
        backend.kernels().addPhiloxListed(rows, parties.length, (int) p, seed, base, stride, partyIdsOnDevice, std);
    }

    private void freeIncidence() {
        if (incidenceStart != null) {
            for (DeviceArray a : new DeviceArray[]{incidenceStart, incidenceColumns, incidenceWeights, edgeRows}) {
                backend.free(a);
            }
            incidenceStart = null;
            edgeRows = null;
            edges = 0;
        }
    }

    /** Gossip: the node models become {@code A X}, with the matrix of {@link #mixing}. */
    public void mix() {
        if (mixStart == null) {
            throw new IllegalStateException("no mixing matrix: call mixing(...) first");
        }
        backend.kernels().mixRows(mixed, mixStart, mixColumns, mixWeights, params, nodes, (int) p);
        DeviceArray swap = params;
        params = mixed;
        mixed = swap;
    }

    private void freeMixing() {
        if (mixStart != null) {
            backend.free(mixStart);
            backend.free(mixColumns);
            backend.free(mixWeights);
            mixStart = null;
        }
    }

    private DeviceArray error(int l) {
        long examples = (long) active * b;
        return errors.slice(examples * errorColumn[l], examples * model.layers().get(l).nOut());
    }

    /** Layer's weights in every node's row: from node 0's, long enough for the strided products to reach node n-1's. */
    private DeviceArray weights(DeviceArray flat, DenseLayer layer) {
        return flat.slice(layer.weightOffset(), (nodes - 1) * p + (long) layer.nIn() * layer.nOut());
    }

    @Override
    public void close() {
        if (closed) {
            return;   // a second close frees nothing again (cudaFree of a freed address may free another array)
        }
        closed = true;
        free();
        freeMixing();
        freeHeld();
        freeIncidence();
        for (DeviceArray a : new DeviceArray[]{sums, combined, partyIds}) {
            if (a != null) {
                backend.free(a);
            }
        }
        for (DeviceArray a : new DeviceArray[]{params, mixed, grad, noise, nodeSq, nodeNorms, nodeParts, nodeFactors, lossSums,
            scalar, nodeOnes}) {
            backend.free(a);
        }
    }
}
