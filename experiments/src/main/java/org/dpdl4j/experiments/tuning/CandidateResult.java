package org.dpdl4j.experiments.tuning;

import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;

/**
 * What one candidate did. Only the best candidate's model, values and score are released; the rest (its number, and
 * the list of every candidate, which show K) is the tuner's own record.
 *
 * @param number    its place in the tuning (0-based)
 * @param poolIndex the pool configuration it trained
 * @param values    the option texts it set
 * @param seed      its run's seed
 * @param outcome   how its run ended
 * @param score     its released (noisy, for private tuning) validation accuracy; -Infinity when it produced no model
 * @param epsilon   what its own run's ledger spent (NaN without a ledger)
 * @param secureNoise whether its run's noise came from a secure source (false without a ledger)
 * @param steps     steps it took
 * @param planned   steps it was planned for
 * @param seconds   wall-clock time of its training and scoring
 * @param model     its model, or null when it produced none
 */
public record CandidateResult(int number, int poolIndex, Map<String, String> values, long seed, Outcome outcome, double score,
                              double epsilon, boolean secureNoise, long steps, long planned, double seconds, MultiLayerNetwork model) {

    /** How a candidate's run ended. */
    public enum Outcome {
        /** Every planned step was taken. */
        COMPLETED,
        /** Its own budget stopped it early (it spends less than planned; its model is scored). */
        BUDGET_REACHED,
        /** Its loss or a parameter stopped being finite: no model, score -Infinity. */
        DIVERGED;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        }
    }
}
