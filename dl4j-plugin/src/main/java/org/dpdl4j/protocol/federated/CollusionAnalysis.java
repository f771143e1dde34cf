package org.dpdl4j.protocol.federated;

/**
 * How GOPA's accountant treats a server that colludes with q of the parties (it learns their pairwise
 * secrets and private noise, leaving the honest induced subgraph).
 */
public sealed interface CollusionAnalysis {

    /**
     * The worst colluding set: exact when the {@code C(K, q)} sets can be enumerated
     * ({@link org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant#EXACT_SUBSET_LIMIT}), else the documented
     * Theorem-1 upper bound (with Fiedler's vertex-deletion inequality). Always a valid guarantee: the default.
     */
    static CollusionAnalysis worstCase() {
        return new WorstCase();
    }

    /**
     * The largest kappa over {@code sets} colluding sets drawn uniformly at random. This models GOPA's threat
     * model (colluders fixed independently of the random graph) by Monte Carlo; it is an estimate, not a
     * worst-case guarantee, and statements say so.
     */
    static CollusionAnalysis sampled(int sets, long seed) {
        return new Sampled(sets, seed);
    }

    /** Parses {@code worst} or {@code sampled:N}. */
    static CollusionAnalysis parse(String text, long seed) {
        String t = text.trim();
        if (t.equals("worst")) {
            return worstCase();
        }
        if (t.startsWith("sampled:")) {
            try {
                return sampled(Integer.parseInt(t.substring("sampled:".length())), seed);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("colluding-set analysis '" + text + "': the number of sets is not an integer;"
                        + " use sampled:N, e.g. sampled:200");
            }
        }
        throw new IllegalArgumentException("unknown colluding-set analysis '" + text + "'; use worst or sampled:N");
    }

    /** The guaranteed worst case (exact or upper bound). */
    record WorstCase() implements CollusionAnalysis {
    }

    /**
     * @param sets how many random colluding sets, &gt;= 1
     * @param seed seed of their draw
     */
    record Sampled(int sets, long seed) implements CollusionAnalysis {
        public Sampled {
            if (sets < 1) {
                throw new IllegalArgumentException("the number of sampled colluding sets must be >= 1, got " + sets);
            }
        }
    }
}
