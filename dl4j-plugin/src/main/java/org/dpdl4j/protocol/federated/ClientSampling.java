package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PoissonSampler;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;

import java.util.stream.IntStream;

/**
 * Which clients take part in a federated round. The privacy analysis of a noisy sum over the participants
 * depends on it, so each scheme also names the per-round event and neighbouring relation it is analysed
 * under (user level: the unit is a client's whole dataset).
 */
public sealed interface ClientSampling extends java.io.Serializable {

    /** The participants of one round, increasing; may be empty under Poisson sampling. */
    int[] select(int clients, java.util.random.RandomGenerator random);

    /** Expected number of participants: the data-independent divisor of the noisy sum. */
    double expectedCount(int clients);

    /** The event of one round of the central Gaussian mechanism (sum of clipped updates + noise) over this sample. */
    DpEvent centralEvent(int clients, GaussianEvent gaussian);

    /** The relation under which {@link #centralEvent} is analysed. */
    NeighbouringRelation relation();

    /** One phrase for statements. */
    String describe();

    /** Every client in every round (replace-one: a client's update may change arbitrarily). */
    record Everyone() implements ClientSampling {
        @Override
        public int[] select(int clients, java.util.random.RandomGenerator random) {
            return IntStream.range(0, clients).toArray();
        }

        @Override
        public double expectedCount(int clients) {
            return clients;
        }

        @Override
        public DpEvent centralEvent(int clients, GaussianEvent gaussian) {
            return gaussian;
        }

        @Override
        public NeighbouringRelation relation() {
            return NeighbouringRelation.REPLACE_ONE;
        }

        @Override
        public String describe() {
            return "every client in every round (no sampling; replace-one adjacency)";
        }
    }

    /**
     * Each client independently with probability q (Poisson sampling; analysed as the sampled Gaussian under
     * add/remove-one-client adjacency).
     *
     * @param rate q in (0, 1]
     */
    record Poisson(double rate) implements ClientSampling {
        public Poisson {
            if (!(rate > 0 && rate <= 1)) {
                throw new IllegalArgumentException("client sampling rate must lie in (0, 1], got " + rate);
            }
        }

        @Override
        public int[] select(int clients, java.util.random.RandomGenerator random) {
            return new PoissonSampler(clients, rate).sample(random);
        }

        @Override
        public double expectedCount(int clients) {
            return rate * clients;
        }

        @Override
        public DpEvent centralEvent(int clients, GaussianEvent gaussian) {
            return new PoissonSampledEvent(rate, gaussian);
        }

        @Override
        public NeighbouringRelation relation() {
            return NeighbouringRelation.ADD_OR_REMOVE_ONE;
        }

        @Override
        public String describe() {
            return "Poisson client sampling with rate q = " + rate + " (add/remove-one-client adjacency)";
        }
    }

    /**
     * Exactly {@code count} clients drawn uniformly without replacement each round (analysed with the
     * Wang-Balle-Kasiviswanathan bound under replace-one adjacency).
     *
     * @param count clients per round, &gt;= 1
     */
    record FixedSize(int count) implements ClientSampling {
        public FixedSize {
            if (count < 1) {
                throw new IllegalArgumentException("clients per round must be >= 1, got " + count);
            }
        }

        @Override
        public int[] select(int clients, java.util.random.RandomGenerator random) {
            requireEnough(clients);
            return new FixedSizeSampler(clients, count).sample(random);
        }

        @Override
        public double expectedCount(int clients) {
            requireEnough(clients);
            return count;
        }

        @Override
        public DpEvent centralEvent(int clients, GaussianEvent gaussian) {
            requireEnough(clients);
            return new SampledWithoutReplacementEvent(clients, count, gaussian);
        }

        @Override
        public NeighbouringRelation relation() {
            return NeighbouringRelation.REPLACE_ONE;
        }

        @Override
        public String describe() {
            return count + " clients per round drawn uniformly without replacement (replace-one adjacency)";
        }

        private void requireEnough(int clients) {
            if (count > clients) {
                throw new IllegalArgumentException(count + " clients per round were asked for but there are only " + clients);
            }
        }
    }
}
