package org.dpdl4j.experiments.audit;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.audit.ZeroGradientCoordinates;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * What the audits of a protocol with many parties (FedAvg's clients, Decor's nodes) share: the observer checked against
 * the protocol's declaration, the examples split over the parties, and Dirac canaries on first-layer weights no
 * party's data moves.
 */
final class PartyAudits {
    private PartyAudits() {
    }

    /** @throws InvalidOptionException when {@code observer} is not one of the positions the protocol declares */
    static void requireDeclared(String algo, List<String> declared, String observer) {
        if (!declared.contains(observer)) {
            throw new InvalidOptionException("--observer", "--observer " + observer + ": " + algo
                    + " declares the observers " + String.join(", ", declared) + "; audit one of them");
        }
    }

    /** @throws InvalidOptionException when there is no hidden layer for the canaries' weights */
    static void requireHidden(List<Integer> hidden) {
        if (hidden.isEmpty()) {
            throw new InvalidOptionException("--hidden", "--hidden: give at least one hidden layer size (the canaries sit on"
                    + " the first layer's weights), e.g. 32");
        }
    }

    /** {@code x} with {@code blank} features appended that are 0 on every example. */
    static INDArray withBlankFeatures(INDArray x, int blank) {
        return blank == 0 ? x : Nd4j.hstack(x, Nd4j.zeros(DataType.FLOAT, x.size(0), blank));
    }

    /**
     * The examples split in order into {@code parties} shards of near-equal size.
     *
     * @param option the option that sets the number of parties, named when there are too few examples
     */
    static List<NodeData> split(INDArray x, INDArray y, int parties, String option) {
        long n = x.size(0);
        if (parties > n) {
            throw new InvalidOptionException(option, option + " " + parties + " is more than the " + n
                    + " training examples: every party needs at least one; use at most " + n);
        }
        List<NodeData> out = new ArrayList<>();
        for (int k = 0; k < parties; k++) {
            long from = n * k / parties;
            long to = n * (k + 1) / parties;
            out.add(new NodeData(x.get(NDArrayIndex.interval(from, to), NDArrayIndex.all()).dup(),
                    y.get(NDArrayIndex.interval(from, to), NDArrayIndex.all()).dup()));
        }
        return out;
    }

    /**
     * The first {@code canaries} first-layer weights whose data gradient is exactly 0.
     *
     * @throws InvalidOptionException naming --canaries and how to make room
     */
    static int[] zeroGradientCoordinates(MultiLayerNetwork net, INDArray features, int canaries, String dataset,
                                         PixelScaling scaling) {
        try {
            return ZeroGradientCoordinates.find(net, features).first(canaries);
        } catch (IllegalArgumentException e) {
            String hint = dataset.equals("mnist") && scaling != PixelScaling.UNIT_INTERVAL
                    ? " (standardized pixels are never 0; with --pixel-scaling unit MNIST's blank border pixels are)"
                    : " (--blank-features K appends K features that are 0 on every example)";
            throw new InvalidOptionException("--canaries", "the canaries sit on zero-gradient coordinates: "
                    + e.getMessage() + hint);
        }
    }

    /** The canaries' coins: repeatable from the seed with seeded noise, else from {@link java.security.SecureRandom}. */
    static java.util.random.RandomGenerator coins(org.dpdl4j.privacy.noise.NoiseKind noise, long seed) {
        return !noise.isSecure() ? new java.util.SplittableRandom(seed + 3)
                : new java.security.SecureRandom();
    }

    /** The seeds a party audit's provenance records: the model's, the generated data's, and with seeded noise the rest. */
    static java.util.Map<String, Long> seeds(long seed, String dataset, org.dpdl4j.privacy.noise.NoiseKind noise) {
        java.util.Map<String, Long> seeds = new java.util.LinkedHashMap<>();
        seeds.put("model", seed);
        if (dataset.equals("synthetic")) {
            seeds.put("data", seed + 1);
        }
        if (!noise.isSecure()) {
            seeds.put("coins", seed + 3);
            seeds.put("streams", seed);
        }
        return seeds;
    }
}
