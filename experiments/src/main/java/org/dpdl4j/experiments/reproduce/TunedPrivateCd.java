package org.dpdl4j.experiments.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Private coordinate descent at one (p, epsilon-bar) of {@code reproduce personalized}: the configuration tuned on the
 * validation instance and what it did on the evaluation instance, averaged over the noise seeds.
 *
 * @param mu              the tuned mu
 * @param releases        the tuned releases per agent T_i
 * @param warm            whether it starts from the private warm start
 * @param accuracy        the mean test accuracy
 * @param objective       the mean objective
 * @param epsilonSum      the worst agent's epsilon by plain composition, over the seeds
 * @param epsilonAdvanced the worst agent's epsilon by the three-way minimum, over the seeds
 */
record TunedPrivateCd(double mu, int releases, boolean warm, double accuracy, double objective, double epsilonSum,
                      double epsilonAdvanced) {

    /** This result as the part {@code key} of {@link ReproductionJournal}, every number exactly. */
    ObjectNode toJson(String key) {
        return ReproductionJournal.part(key).put("mu", ReproductionJournal.number(mu)).put("releases", releases)
                .put("warm", Boolean.toString(warm)).put("accuracy", ReproductionJournal.number(accuracy))
                .put("objective", ReproductionJournal.number(objective))
                .put("epsilon_sum", ReproductionJournal.number(epsilonSum))
                .put("epsilon_advanced", ReproductionJournal.number(epsilonAdvanced));
    }

    /** The result {@link #toJson} wrote. */
    static TunedPrivateCd fromJson(JsonNode part) {
        String warm = ReproductionJournal.text(part, "warm");
        if (!warm.equals("true") && !warm.equals("false")) {
            throw new IllegalArgumentException("warm is neither true nor false");
        }
        return new TunedPrivateCd(ReproductionJournal.number(part, "mu"), Math.toIntExact(ReproductionJournal.integer(part, "releases")),
                Boolean.parseBoolean(warm), ReproductionJournal.number(part, "accuracy"), ReproductionJournal.number(part, "objective"),
                ReproductionJournal.number(part, "epsilon_sum"), ReproductionJournal.number(part, "epsilon_advanced"));
    }
}
