package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** One round of verifiable GOPA among honest parties: their secrets and what they publish, repeatable from a seed. */
final class VerifiableRound {
    static final PedersenGroup GROUP = PedersenGroup.standard();

    final Graph graph;
    final long round;
    final int dimension;
    final List<PartySecrets> secrets;
    final List<PartyContribution> contributions;
    final SecureRandom random;

    private VerifiableRound(Graph graph, long round, int dimension, List<PartySecrets> secrets, SecureRandom random) {
        this.graph = graph;
        this.round = round;
        this.dimension = dimension;
        this.secrets = secrets;
        this.random = random;
        this.contributions = new ArrayList<>();
        for (int k = 0; k < graph.vertexCount(); k++) {
            contributions.add(PartyContribution.prove(GROUP, k, round, secrets.get(k), random));
        }
    }

    /**
     * Honest parties on {@code graph}: theta uniform in [0, 1], eta ~ N(0, 0.5^2), Delta ~ N(0, 20^2), drawn from
     * {@code seed}.
     */
    static VerifiableRound honest(Graph graph, int dimension, long round, long seed) {
        Random values = new Random(seed);
        SecureRandom random = repeatable(seed);
        int n = graph.vertexCount();
        List<List<PairwiseTerm>> terms = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            terms.add(new ArrayList<>());
        }
        for (Edge e : graph.edges()) {
            double[] delta = new double[dimension];
            for (int i = 0; i < dimension; i++) {
                delta[i] = 20 * values.nextGaussian();
            }
            PairwiseTerm[] ends = PairwiseTerm.agree(e.i(), e.j(), delta, GROUP, random);
            terms.get(e.i()).add(ends[0]);
            terms.get(e.j()).add(ends[1]);
        }
        List<PartySecrets> secrets = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            double[] theta = new double[dimension];
            double[] eta = new double[dimension];
            for (int i = 0; i < dimension; i++) {
                theta[i] = values.nextDouble();
                eta[i] = 0.5 * values.nextGaussian();
            }
            theta[0] = k % 2 == 0 ? 0.0 : 1.0;   // the ends of the range are in range
            secrets.add(PartySecrets.encode(theta, terms.get(k), eta, GROUP, random));
        }
        return new VerifiableRound(graph, round, dimension, secrets, random);
    }

    /** A seeded SecureRandom: repeatable proofs, for tests only (a real party must never reuse nonces). */
    static SecureRandom repeatable(long seed) {
        try {
            SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
            random.setSeed(seed);   // before the first draw, this fixes the whole stream
            return random;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    GopaVerifier verifier() {
        return new GopaVerifier(GROUP, graph, round, dimension);
    }

    VerificationReport verify() {
        return verifier().verify(contributions);
    }

    /** Replaces party k's contribution by what {@code secrets} prove without the range check (a cheater's). */
    void replaceSecrets(int k, PartySecrets cheat) {
        secrets.set(k, cheat);
        contributions.set(k, PartyContribution.proveAsIs(GROUP, k, round, cheat, random));
    }

    /** Party k's contribution with coordinate i replaced. */
    void replaceCoordinate(int k, int i, CoordinateContribution coordinate) {
        PartyContribution c = contributions.get(k);
        List<CoordinateContribution> coordinates = new ArrayList<>(c.coordinates());
        coordinates.set(i, coordinate);
        contributions.set(k, new PartyContribution(c.party(), c.round(), coordinates));
    }
}
