package org.dpdl4j.audit;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;

/**
 * Black-box input canaries: m examples from outside the training set, each given a wrong label (drawn uniformly among
 * the other classes) so that only training on it can make the model agree with it, and one coin per canary, drawn
 * with probability 1/2, saying whether it joins the training set. Included canaries are ordinary training examples
 * (they are clipped and sampled like the rest, and count in the data set size); the auditor sees only the final model
 * and scores each canary by the model's logit-scaled confidence in its (wrong) label: higher points to inclusion.
 * The per-canary loop of the score runs once, after training.
 */
public final class InputCanaries {
    private final INDArray features;
    private final INDArray labels;
    private final boolean[] coins;

    private InputCanaries(INDArray features, INDArray labels, boolean[] coins) {
        this.features = features;
        this.labels = labels;
        this.coins = coins;
    }

    /** Canaries from the rows of {@code pool} with their one-hot labels changed, with secure coins. */
    public static InputCanaries mislabel(INDArray pool, INDArray poolLabels, RandomGenerator labelRandom) {
        return mislabel(pool, poolLabels, labelRandom, new SecureRandom());
    }

    /**
     * Canaries from the rows of {@code pool} (examples the training set does not hold), each relabelled with a class
     * other than its own, drawn by {@code labelRandom}; coins from {@code coinRandom} (a seeded one makes the audit
     * repeatable, not secure).
     *
     * @param pool       [m, ...] features, one canary per row
     * @param poolLabels [m, k] one-hot labels, k &gt;= 2
     */
    public static InputCanaries mislabel(INDArray pool, INDArray poolLabels, RandomGenerator labelRandom,
                                         RandomGenerator coinRandom) {
        Objects.requireNonNull(labelRandom, "label randomness");
        Objects.requireNonNull(coinRandom, "coin randomness");
        long m = pool.size(0);
        if (m < 1 || poolLabels.size(0) != m) {
            throw new IllegalArgumentException("input canaries need at least one row and one label row per feature row;"
                    + " got " + m + " feature rows and " + poolLabels.size(0) + " label rows");
        }
        int k = (int) poolLabels.size(1);
        if (poolLabels.rank() != 2 || k < 2) {
            throw new IllegalArgumentException("input canaries are relabelled among k >= 2 classes of one-hot labels [m, k];"
                    + " got labels of shape " + java.util.Arrays.toString(poolLabels.shape())
                    + " (a binary model's single column cannot be relabelled: use two one-hot classes)");
        }
        int[] own = poolLabels.argMax(1).toIntVector();
        INDArray wrong = Nd4j.zeros(poolLabels.dataType(), m, k);
        boolean[] coins = new boolean[(int) m];
        for (int i = 0; i < m; i++) {
            int label = labelRandom.nextInt(k - 1);
            wrong.putScalar(i, label >= own[i] ? label + 1 : label, 1.0);
            coins[i] = coinRandom.nextBoolean();
        }
        return new InputCanaries(pool.dup(), wrong, coins);
    }

    /** The training features with the included canaries appended. */
    public INDArray withIncludedFeatures(INDArray trainFeatures) {
        int[] in = included();
        return in.length == 0 ? trainFeatures
                : Nd4j.concat(0, trainFeatures, Nd4j.pullRows(features, 1, in).castTo(trainFeatures.dataType()));
    }

    /** The training labels with the included canaries' (wrong) labels appended. */
    public INDArray withIncludedLabels(INDArray trainLabels) {
        int[] in = included();
        return in.length == 0 ? trainLabels
                : Nd4j.concat(0, trainLabels, Nd4j.pullRows(labels, 1, in).castTo(trainLabels.dataType()));
    }

    /**
     * The black-box score of every canary: the logit-scaled confidence the final model has in the canary's label,
     * ln(p / (1 - p)) = z_label - ln sum_{j != label} e^{z_j} from the output layer's logits z, in double precision (the
     * probabilities themselves round to 1 in float32 once a canary is fitted, and ties there would hide the order).
     * The output layer must be a dense layer with weights W and bias b (DL4J's {@code OutputLayer}, softmax).
     */
    public double[] scores(MultiLayerNetwork finalModel) {
        int last = finalModel.getnLayers() - 1;
        java.util.List<INDArray> activations = finalModel.feedForwardToLayer(last - 1,
                features.castTo(finalModel.params().dataType()), false);
        INDArray hidden = activations.get(activations.size() - 1).castTo(DataType.DOUBLE);
        INDArray w = finalModel.getLayer(last).getParam("W");
        INDArray b = finalModel.getLayer(last).getParam("b");
        if (w == null || b == null) {
            throw new IllegalArgumentException("the black-box score reads the logits of a dense output layer with weights W"
                    + " and bias b; this network's last layer has neither (use an OutputLayer)");
        }
        double[][] logits = hidden.mmul(w.castTo(DataType.DOUBLE)).addiRowVector(b.castTo(DataType.DOUBLE)).toDoubleMatrix();
        int[] target = labels.argMax(1).toIntVector();
        double[] scores = new double[logits.length];
        for (int i = 0; i < logits.length; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < logits[i].length; j++) {
                if (j != target[i]) {
                    max = Math.max(max, logits[i][j]);
                }
            }
            double sum = 0;
            for (int j = 0; j < logits[i].length; j++) {
                if (j != target[i]) {
                    sum += Math.exp(logits[i][j] - max);
                }
            }
            scores[i] = logits[i][target[i]] - (max + Math.log(sum));
        }
        return scores;
    }

    /** m, all canaries. */
    public int canaries() {
        return coins.length;
    }

    /** How many are included. */
    public int count() {
        return included().length;
    }

    /** The coins (a copy). */
    public boolean[] coins() {
        return coins.clone();
    }

    private int[] included() {
        return IntStream.range(0, coins.length).filter(i -> coins[i]).toArray();
    }
}
