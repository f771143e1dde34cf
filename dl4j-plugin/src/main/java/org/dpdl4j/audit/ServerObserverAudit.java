package org.dpdl4j.audit;

import java.util.Arrays;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.runtime.RunListener;
import org.dpdl4j.runtime.TrainingRun;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The audit of DP-FedAvg with local noise by the server, which sees every participant's message: each canary client's
 * score is its log-likelihood ratio over the rounds it sent, read off its own message on its coordinate
 * ({@link CanaryClientScores}). The server knows who sent, so an observed message is a participation (q = 1) and the
 * rounds a canary sat out tell it nothing; the local ledger likewise counts every round and credits no sampling.
 */
public final class ServerObserverAudit implements RunListener {
    private final CanaryClients canaries;
    private final CanaryClientScores scores;
    private final int[] coordinates;
    private final int realClients;
    private final double sigma;

    /**
     * @param run      the audited run, built with {@code canaries} planted
     * @param canaries its canary clients
     */
    public ServerObserverAudit(FedAvgTrainer run, CanaryClients canaries) {
        if (run.config().variant() != FedAvgVariant.DP_LOCAL) {
            throw new IllegalArgumentException("the server observer audits dp-fedavg-local, whose clients noise their own"
                    + " messages; this run is " + run.config().variant().cliName());
        }
        if (run.clientCount() - run.realClientCount() != canaries.count()) {
            throw new IllegalArgumentException("the run has " + (run.clientCount() - run.realClientCount())
                    + " planted clients but the canaries make " + canaries.count() + "; plant these canaries in the run");
        }
        if (run.privacy().relation() != canaries.relation()) {
            throw new IllegalArgumentException("the run's ledger treats " + run.privacy().relation() + " datasets as"
                    + " neighbours but the canaries were drawn for " + canaries.relation() + "; draw them for the run's relation");
        }
        this.canaries = canaries;
        this.scores = new CanaryClientScores(canaries);
        this.coordinates = canaries.coordinates();
        this.realClients = run.realClientCount();
        this.sigma = run.config().noiseMultiplier() * run.config().clipNorm();
    }

    @Override
    public void onStep(TrainingRun run) {
        FedAvgTrainer fedAvg = (FedAvgTrainer) run;
        int[] participants = fedAvg.lastParticipants();
        INDArray messages = fedAvg.lastMessages();
        int first = firstPlanted(participants);
        if (messages == null || first == participants.length) {
            return;
        }
        int[] planted = Arrays.stream(participants, first, participants.length).map(k -> k - realClients).toArray();
        int[] which = canaries.canariesOf(planted);
        long p = messages.size(1);
        // Row first + r of the messages is canary which[r]'s: one gather of its coordinate from the flattened rows.
        int[] entries = new int[which.length];
        for (int r = 0; r < which.length; r++) {
            entries[r] = Math.toIntExact((first + r) * p + coordinates[which[r]]);
        }
        INDArray x = Nd4j.pullRows(messages.reshape(messages.length(), 1), 1, entries).divi(sigma);
        scores.add(which, x, canaries.norm() / sigma, 1.0);
    }

    /** Where the planted clients begin among the round's increasing participant ids. */
    private int firstPlanted(int[] participants) {
        int i = Arrays.binarySearch(participants, realClients);
        return i >= 0 ? i : -i - 1;
    }

    /** Each canary's score so far. */
    public double[] scores() {
        return scores.scores();
    }

    /** The canaries' messages seen so far. */
    public long observations() {
        return scores.observations();
    }
}
