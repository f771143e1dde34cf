package org.dpdl4j.attacks.membership;

/**
 * The area under the ROC curve of membership scores: the probability that a random member scores above a random
 * non-member, ties counting one half (the Mann-Whitney statistic). 0.5 is guessing, 1 is perfect separation.
 */
public final class Auc {
    private Auc() {
    }

    public static double of(double[] members, double[] nonMembers) {
        if (members.length == 0 || nonMembers.length == 0) {
            throw new IllegalArgumentException("an AUC needs at least one member and one non-member");
        }
        double wins = 0;
        for (double m : members) {
            for (double o : nonMembers) {
                wins += m > o ? 1 : m == o ? 0.5 : 0;
            }
        }
        return wins / ((double) members.length * nonMembers.length);
    }
}
