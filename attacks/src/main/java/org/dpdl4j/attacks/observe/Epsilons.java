package org.dpdl4j.attacks.observe;

/** Checks that a protocol scenario is run at an epsilon it takes. */
final class Epsilons {
    private Epsilons() {
    }

    static void require(ProtocolScenario scenario, double epsilon) {
        if (scenario.isPrivate() && !(epsilon > 0 && Double.isFinite(epsilon))) {
            throw new IllegalArgumentException(scenario.algorithm() + " calibrates its noise to a positive finite"
                    + " epsilon, got " + epsilon + "; run its non-private counterpart for no privacy");
        }
        if (!scenario.isPrivate() && epsilon != Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(scenario.algorithm() + " adds no noise; run it at epsilon = +Infinity,"
                    + " not " + epsilon);
        }
    }
}
