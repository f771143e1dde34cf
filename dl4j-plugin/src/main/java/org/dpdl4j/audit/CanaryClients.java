package org.dpdl4j.audit;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.protocol.federated.PlantedClients;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Canary clients for a one-run audit of a federated protocol, where the protected unit is a client: canary k is a
 * client with no data whose update is the Dirac vector {@code S e_j} on a coordinate j of its own, and a coin drawn
 * with probability 1/2 says whether it is "in". What "out" means follows the neighbouring relation the run's ledger is
 * priced under, so that in and out are neighbouring runs for that ledger:
 * <ul>
 *   <li>add or remove one client: an "out" canary is not a client of the run at all;</li>
 *   <li>replace one client's data: every canary is a client, and an "out" canary's data is replaced by data whose
 *       update is the mirror {@code -S e_j} (two updates of norm S, the farthest apart the relation allows).</li>
 * </ul>
 * Placed on coordinates where no real client's update is ever non-zero ({@link ZeroGradientCoordinates}), an observer
 * of the sum sees on coordinate j the canary's share, when it is sampled, plus the noise, and nothing of the data.
 */
public final class CanaryClients implements PlantedClients {
    private final int[] coordinates;
    private final boolean[] coins;
    private final double norm;
    private final NeighbouringRelation relation;
    /** The canary behind each planted client: every canary, or the "in" ones only when "out" means absent. */
    private final int[] members;

    private CanaryClients(int[] coordinates, boolean[] coins, double norm, NeighbouringRelation relation) {
        this.coordinates = coordinates;
        this.coins = coins;
        this.norm = norm;
        this.relation = relation;
        this.members = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE
                ? IntStream.range(0, coins.length).filter(i -> coins[i]).toArray()
                : IntStream.range(0, coins.length).toArray();
    }

    /** Canaries on the given coordinates with secure coins. */
    public static CanaryClients dirac(int[] coordinates, double norm, NeighbouringRelation relation) {
        return dirac(coordinates, norm, relation, new SecureRandom());
    }

    /**
     * Canaries on the given coordinates, one each, with coins from {@code coinRandom} (a seeded one makes the audit
     * repeatable, not secure).
     *
     * @param coordinates m distinct indices into the global model's parameters, e.g. from {@link ZeroGradientCoordinates}
     * @param norm        the update's norm: the clip S for a correct mechanism
     * @param relation    the neighbouring relation of the audited run's ledger (what "out" means)
     */
    public static CanaryClients dirac(int[] coordinates, double norm, NeighbouringRelation relation, RandomGenerator coinRandom) {
        Objects.requireNonNull(relation, "neighbouring relation");
        Objects.requireNonNull(coinRandom, "coin randomness");
        if (coordinates.length < 1) {
            throw new IllegalArgumentException("an audit needs at least one canary client, got no coordinates"
                    + " (a few hundred to thousands give a useful bound)");
        }
        if (!(norm > 0) || Double.isInfinite(norm)) {
            throw new IllegalArgumentException("the canaries' update norm must be a positive finite number (the clip S), got "
                    + norm);
        }
        int[] sorted = coordinates.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0) {
                throw new IllegalArgumentException("coordinate " + sorted[i] + " is negative");
            }
            if (i > 0 && sorted[i] == sorted[i - 1]) {
                // Two canaries on one coordinate would add to each other's observation in the sum.
                throw new IllegalArgumentException("coordinate " + sorted[i] + " is given twice; each canary client needs a"
                        + " coordinate of its own");
            }
        }
        boolean[] coins = new boolean[coordinates.length];
        for (int i = 0; i < coins.length; i++) {
            coins[i] = coinRandom.nextBoolean();
        }
        return new CanaryClients(coordinates.clone(), coins, norm, relation);
    }

    @Override
    public int count() {
        return members.length;
    }

    /** One non-zero entry per row, the canary's signed norm on its coordinate (a scatter of k values). */
    @Override
    public INDArray updates(int[] planted, long parameters, DataType type) {
        INDArray rows = Nd4j.zeros(type, planted.length, parameters);
        for (int r = 0; r < planted.length; r++) {
            int canary = members[planted[r]];
            if (coordinates[canary] >= parameters) {
                throw new IllegalArgumentException("canary " + canary + "'s coordinate " + coordinates[canary]
                        + " lies outside the model's " + parameters + " parameters; place the canaries for this model");
            }
            rows.putScalar(r, coordinates[canary], coins[canary] ? norm : -norm);
        }
        return rows;
    }

    /** The canary behind each planted client index ({@code 0..count()-1}). */
    public int[] canariesOf(int[] planted) {
        return Arrays.stream(planted).map(i -> members[i]).toArray();
    }

    /** m, every canary, in or out. */
    public int canaries() {
        return coins.length;
    }

    /** Whether each canary is "in" (a copy). */
    public boolean[] coins() {
        return coins.clone();
    }

    /** Each canary's coordinate (a copy). */
    public int[] coordinates() {
        return coordinates.clone();
    }

    /** S, the norm of every canary's update. */
    public double norm() {
        return norm;
    }

    /** The relation "in" and "out" are neighbours under. */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** Whether an "out" canary still sends: its update mirrored, under replace-one. */
    public boolean outMirrored() {
        return relation != NeighbouringRelation.ADD_OR_REMOVE_ONE;
    }

    @Override
    public String toString() {
        return "CanaryClients[m=" + coins.length + ", clients=" + members.length + ", norm=" + norm + ", " + relation + "]";
    }
}
