package org.dpdl4j.cuda.engine;

/**
 * The elementwise and per-example kernels of the DP step, one method per kernel of {@code dp_step.cu}, with the same
 * arguments in the same order. Activations and errors are column-major [b, n]; labels row-major. Arrays that may be
 * absent are null.
 */
public interface Kernels {
    /**
     * z := f(z + bias) over {@code count} values whose unit is {@code (e / inner) % n}: a column-major [b, n] matrix
     * (inner = b) or NCHW maps (inner = H W, n = C).
     */
    void biasActivation(DeviceArray z, DeviceArray bias, int count, int inner, int n, Activation f);

    /** eps := eps * f'(z) given a = f(z), over {@code count} elements. */
    void activationBackprop(DeviceArray eps, DeviceArray a, int count, Activation f);

    /** Per example, the loss into {@code loss[i]} and the error dL/dz in place of the output pre-activations z [b, n]. */
    void outputLoss(OutputLoss kind, DeviceArray z, DeviceArray labels, DeviceArray loss, int b, int n);

    /**
     * sq[i] (+)= (||a_i||^2 + [bias]) ||error_i||^2, with a's element (i, j) at {@code i * rowStride + j * colStride}, or
     * ||a_i||^2 given in {@code inputSq}; writes instead of adding when {@code first}.
     */
    void addGhostNorms(DeviceArray sq, DeviceArray a, int rowStride, int colStride, DeviceArray inputSq, DeviceArray error,
                       int b, int nIn, int nOut, boolean hasBias, boolean first);

    /** Every row i of errors [b, cols] times min(1, clip / sqrt(sq[i])); norms[i] := sqrt(sq[i]). */
    void clipErrors(DeviceArray errors, int b, int cols, DeviceArray sq, DeviceArray norms, float clip);

    /** norms[i] := sqrt(sq[i]), factors[i] := min(1, clip / norms[i]). */
    void clipFactors(DeviceArray sq, DeviceArray norms, DeviceArray factors, int b, float clip);

    /** values[e] *= factors[(e / inner) % b] over {@code count} values. */
    void scaleByExample(DeviceArray values, int count, int inner, int b, DeviceArray factors);

    /**
     * sq[i] (+)= the dot product of vector i's {@code length} values in u and in d (the vectors one after another; u = d
     * gives squared lengths, e.g. of the columns of a column-major [length, b] matrix); writes when {@code first}. Each
     * vector is split over {@link #lanes(long)} lanes (lane j sums the values at j, j + lanes, ...), whose sums are then
     * added in lane order: b times lanes threads share the work instead of one per vector.
     *
     * @param parts work space of at least b times {@link #lanes(long)} floats
     */
    void addRowDots(DeviceArray sq, DeviceArray u, DeviceArray d, int length, int b, boolean first, DeviceArray parts);

    /** The most lanes a vector is split over ({@link #addRowDots}). */
    int MAX_LANES = 256;
    /** The fewest values a lane sums (shorter vectors take fewer lanes; below this, one). */
    int VALUES_PER_LANE = 64;

    /** How many lanes a vector of {@code length} values is split over: length / 64, between 1 and 256. */
    static int lanes(long length) {
        return (int) Math.max(1, Math.min(MAX_LANES, length / VALUES_PER_LANE));
    }

    /**
     * Unfolds NCHW images x [b, c, h, w]: per example the K x T matrix (K = c kH kW taps, T = outH outW positions) of
     * the values each output position sees, 0 in the padding.
     */
    void im2col(DeviceArray x, DeviceArray cols, ConvShape shape, int b);

    /** g = (grad + noise) / divisor kept in grad; params -= g * lr. */
    void noisySgd(DeviceArray params, DeviceArray grad, DeviceArray noise, int p, float divisor, float lr);

    /**
     * g = (grad + noise) / divisor kept in grad; then DL4J's Nesterov momentum with the state v:
     * {@code m = momentum v; v := m - lr g; params -= m + (-momentum - 1) v}.
     */
    void noisyNesterovs(DeviceArray params, DeviceArray v, DeviceArray grad, DeviceArray noise, int p, float divisor, float lr,
                        float momentum);

    /** grad[j] += std * z_j with z_j from Philox4x32-10 under {@code seed} at counter (j, 0, stream): NOT secure. */
    void addPhiloxGaussian(DeviceArray grad, int p, long seed, long stream, float std);

    /**
     * Rows of {@link #addPhiloxGaussian} at once: x[r, j] += std * z_j of stream {@code first + r stride}, x row-major
     * [rows, p] (every node's private noise, or every edge's pairwise noise, of a round): NOT secure.
     */
    void addPhiloxRows(DeviceArray x, int rows, int p, long seed, long first, long stride, double std);

    /**
     * Rows of {@link #addPhiloxGaussian} for listed parties: x[r, j] += std * z_j of stream {@code base + id_r stride},
     * {@code id_r = ids[2r] 32768 + ids[2r + 1]} (ids below 2^30 as two exact floats): NOT secure.
     */
    void addPhiloxListed(DeviceArray x, int rows, int p, long seed, long base, long stride, DeviceArray ids, double std);

    /**
     * Gossip over compressed rows: out[i, :] = sum over row i's non-zeros k of weights[k] x[cols[k], :], x and out
     * row-major [n, p]; row starts and columns held as floats (exact below 2^24).
     */
    void mixRows(DeviceArray out, DeviceArray start, DeviceArray cols, DeviceArray weights, DeviceArray x, int n, int p);

    /**
     * A batch from data kept on the device: row r of out [rows, width] := row {@code index[r]} of src (row-major), the
     * indices held as floats (exact below 2^24).
     */
    void gatherRows(DeviceArray out, DeviceArray src, DeviceArray index, int rows, int width);
}
