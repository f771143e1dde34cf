package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The n models of one dense network (the parties of a multi-party run, as the rows of an [n, p] matrix) kept on an
 * accelerator, with the operations a round applies to all of them at once; opened by a {@link DeviceEngine}
 * ({@link DeviceEngine#openNodeModels}). Only what a caller asks for ({@link #download}, the loss sums) comes back to
 * the host. Values are float32; the results equal those of the CPU's engine to float rounding.
 *
 * <p>Not thread-safe; close it to free the device memory.
 */
public interface DeviceNodeModels extends AutoCloseable {
    /** How many models (rows). */
    int nodes();

    /**
     * Makes every later operation but {@link #mix} act on the first {@code k} models only, 1 &lt;= k &lt;= n (the
     * participants of a federated round); shapes below then say k where they say n. All n until called.
     */
    void useRows(int k);

    /** Every model in use becomes {@code row} ([p] or [1, p]), as the clients of a round start from the global model. */
    void broadcast(INDArray row);

    /** Models {@code [first, first + count)} of all n become {@code row} ([p] or [1, p]). */
    void broadcast(INDArray row, int first, int count);

    /** Copies the [n, p] models in. */
    void upload(INDArray models);

    /** Copies the [n, p] models out into {@code into}. */
    void download(INDArray into);

    /**
     * Every model's sum of per-example clipped gradients over its padded batch ({@link PerExampleGradients}'s contract
     * for stacked models), kept on the device as the round's gradients.
     *
     * @param features            [n, b, nIn]
     * @param labels              [n, b, k]
     * @param mask                null, or [n, b] with 1 for real examples and 0 for padding
     * @param featureSquaredNorms null, or ||x||^2 per example, [n, b]
     * @param clip                C &gt; 0, or +infinity for no clipping
     * @return each model's summed loss over its real examples
     */
    double[] clippedSums(INDArray features, INDArray labels, INDArray mask, INDArray featureSquaredNorms, double clip);

    /**
     * Keeps the rows of all parties' data on the device (features [N, nIn], labels [N, k], each row's squared feature
     * norm [N] or [N, 1], or null), so that a round sends only which rows make its batch
     * ({@link #clippedSums(int[], int, float[], double)}); false, keeping nothing, when they would take more than half
     * of the device's free memory, more rows than it indexes (2^24 - 1) or more values than one of its arrays holds: batches
     * then come from the host.
     */
    boolean holdData(INDArray features, INDArray labels, INDArray featureSquaredNorms);

    /**
     * {@link #clippedSums(INDArray, INDArray, INDArray, INDArray, double)} of a batch made of rows of the held data:
     * {@code rows[i b + j]} the row of model i's j-th example (padding: a row of zeros in the held data), {@code mask}
     * [n b] (1 real, 0 padding) or null when every model has b real examples.
     */
    double[] clippedSums(int[] rows, int batch, float[] mask, double clip);

    /**
     * The gradient rows in use become each model in use minus {@code start} ([p] or [1, p]): the updates of local
     * training that began from one global model.
     */
    void updatesFrom(INDArray start);

    /**
     * {@code into} ([p] or [1, p]) := the sum over the rows in use of {@code weights[i]} times (gradient row i plus, when
     * {@code withNoise}, noise row i): an aggregate of the rows with only p values copied out.
     */
    void weightedSum(double[] weights, boolean withNoise, INDArray into);

    /** Copies the gradient rows in use (as scaled and clipped since) out into {@code into} ([k, p]). */
    void downloadGradients(INDArray into);

    /** Gradient row i times {@code factors[i]}. */
    void scaleRows(double[] factors);

    /** Each gradient row to norm at most {@code clip} (user-level clipping); +infinity measures the norms only. */
    void clipRows(double clip);

    /** The norms of the gradient rows in use before the last {@link #clipRows}. */
    double[] rowNorms();

    /**
     * Gradient rows {@code [to, to + rows)} plus {@code factor} times rows {@code [from, from + rows)}, two ranges of the
     * n rows that do not overlap (e.g. the difference of the gradients of the same samples at two points).
     */
    void addRows(int from, int to, int rows, double factor);

    /**
     * Adds {@code scale} times the gradient rows in use to a running sum per row, kept on the device (zero before the
     * first call, which fixes how many rows it has: the rows then in use), as a corrected-momentum estimate sums its
     * increments.
     */
    void accumulate(double scale);

    /** Copies the running sums ([k, p], k the rows of {@link #accumulate}) out into {@code into}. */
    void downloadSums(INDArray into);

    /** Replaces the running sums by {@code values} ([k, p]), allocating them for k rows when there are none yet. */
    void uploadSums(INDArray values);

    /**
     * The mean over the rows of the running sums plus, when {@code withNoise}, as many noise rows, into {@code into}
     * ([p] or [1, p]): what a server averaging the rows' noisy messages gets, with only p values copied out.
     */
    void meanOfSums(boolean withNoise, INDArray into);

    /**
     * Copies a round's noise in ([k, p], the first k of the n rows of the device's noise), as drawn on the host; the
     * next operation that takes {@code withNoise} adds it, once (a noisy operation without a fresh fill is refused).
     * {@link #drawPhiloxNoise} draws it there instead.
     */
    void uploadNoise(INDArray noise);

    /** Copies the first k noise rows of the last fill ({@link #uploadNoise}, {@link #drawPhiloxNoise}) out into {@code into}. */
    void downloadNoise(INDArray into);

    /**
     * The local step: {@code x := (1 - lr weightDecay) x} when weight decay is positive, then {@code x -= lr (g + noise)}
     * with the noise on the device ({@link #uploadNoise}, {@link #drawPhiloxNoise}) when {@code withNoise}.
     */
    void step(boolean withNoise, double lr, double weightDecay);

    /** Sets the [n, n] gossip matrix in compressed rows (see {@code SparseRowOperator#rowStarts}) that {@link #mix} applies. */
    void mixing(int[] rowStarts, int[] columns, double[] values);

    /** Gossip: the models become {@code A X}. */
    void mix();

    /**
     * Sets the incidence matrix B ([n, edges] in compressed rows, e.g. Decor's signed incidence) that combines the
     * pairwise rows {@link #drawPhiloxNoise} draws; false, setting nothing, when the edges' rows would take more than
     * half of the device's free memory or more values than one array holds (the noise is then drawn on the host).
     */
    boolean pairwiseIncidence(int[] rowStarts, int[] columns, double[] values, int edges);

    /**
     * Draws a round's noise on the device from Philox counters, the values a CPU run with
     * {@link org.dpdl4j.privacy.noise.PhiloxNoiseStreams} of {@code seed} draws, to float rounding (seeded, NOT secure):
     * {@code B U} with U's
     * row e from edge e's pairwise stream of {@code pairwiseRound} times {@code sigmaPairwise} (none when 0), plus node
     * i's private row of {@code round} times {@code sigmaPrivate} (none when 0), for the rows in use (all n with
     * pairwise noise). The operations that take {@code withNoise} add it; it never leaves the device.
     */
    void drawPhiloxNoise(long seed, long round, double sigmaPrivate, long pairwiseRound, double sigmaPairwise);

    /**
     * Draws the private noise of listed parties on the device ({@code PhiloxNoiseStreams} of {@code seed}, seeded, NOT
     * secure): noise row r is party {@code parties[r]}'s private row of {@code round} times {@code sigma}, the values a
     * CPU run draws to float rounding (a round's sampled participants, not numbered consecutively).
     */
    void drawPrivatePhiloxRows(long seed, long round, int[] parties, double sigma);

    /**
     * {@link #drawPhiloxNoise} for models that are some of a run's parties (a block of its nodes): row r is party
     * {@code parties[r]}'s private row of {@code round} times {@code sigmaPrivate} plus its row of {@code B U}, U's row e
     * edge {@code edges[e]}'s pairwise row of {@code pairwiseRound} times {@code sigmaPairwise}, B the incidence rows
     * of {@link #pairwiseIncidence} (whose columns index {@code edges}). All n rows.
     */
    void drawPhiloxNoise(long seed, long round, int[] parties, double sigmaPrivate, int[] edges, long pairwiseRound,
                         double sigmaPairwise);

    /** One line: the device and what it holds. */
    String describe();

    /** Frees the device's memory; a second call does nothing. */
    @Override
    void close();
}
