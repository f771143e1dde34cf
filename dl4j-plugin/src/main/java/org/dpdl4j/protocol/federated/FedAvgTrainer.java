package org.dpdl4j.protocol.federated;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * FedAvg and its private variants (spec 7.1-7.3) with the participants' local models as the rows of one
 * matrix. One round:
 * <ol>
 *   <li>the server draws the participants ({@link ClientSampling}, from {@code serverStreams.sampling(0, round)});</li>
 *   <li>every participant runs L local SGD steps from the global model (one batched pass per step for all of
 *       them) and forms its update {@code Delta_k};</li>
 *   <li>aggregation, by variant: FedAvg averages with weights 1/K or {@code m_k / sum m}; DP-FedAvg local clips each
 *       update to S and adds {@code N(0, (zS)^2 I)} from the client's stream; DP-FedAvg central clips at the server,
 *       sums and adds {@code N(0, (zS)^2 I)} from {@code serverStreams.privateNoise(0, round)}; GOPA clips and
 *       reveals through {@link GopaAveraging}. The private variants divide the noisy sum by the expected number of
 *       participants, a data-independent divisor;</li>
 *   <li>{@code theta <- theta + serverRate * average}.</li>
 * </ol>
 */
public final class FedAvgTrainer implements FederatedTrainer {
    private final MultiLayerNetwork template;
    private final List<NodeData> clients;
    private final FedAvgConfig config;
    private final NoiseStreams clientStreams;
    private final NoiseStreams serverStreams;
    private final LocalTraining local;
    private final GopaAveraging gopa;
    private final INDArray theta;
    private final double[] sizes;
    private long round;
    private double lastLoss = Double.NaN;
    private int[] lastParticipants = new int[0];
    private INDArray lastMessages;

    /**
     * @param template      network whose parameters are the starting global model
     * @param clients       the clients' local datasets
     * @param config        the run's settings
     * @param clientStreams the clients' streams: local batches, their private noise, pairwise secrets (GOPA)
     * @param serverStreams the server's streams: participant selection and central noise
     * @param gopaGraph     GOPA's pairwise-secret graph over the clients (GOPA only, else null)
     */
    public FedAvgTrainer(MultiLayerNetwork template, List<NodeData> clients, FedAvgConfig config, NoiseStreams clientStreams,
                         NoiseStreams serverStreams, Graph gopaGraph) {
        this.template = Objects.requireNonNull(template, "template network");
        this.clients = List.copyOf(clients);
        this.config = Objects.requireNonNull(config, "config");
        this.clientStreams = Objects.requireNonNull(clientStreams, "client streams");
        this.serverStreams = Objects.requireNonNull(serverStreams, "server streams");
        if (this.clients.isEmpty()) {
            throw new IllegalArgumentException("federated averaging needs at least one client");
        }
        PerExampleGradients gradients = PerExampleGradients.of(template);
        sizes = new double[this.clients.size()];
        for (int k = 0; k < sizes.length; k++) {
            NodeData d = this.clients.get(k);
            if (d.features().size(1) != gradients.spec().nIn()) {
                throw new IllegalArgumentException("client " + k + " has " + d.features().size(1) + " features but the model takes "
                        + gradients.spec().nIn());
            }
            sizes[k] = d.size();
        }
        config.sampling().expectedCount(sizes.length);   // validates fixed-size sampling against the client count
        if (config.variant() == FedAvgVariant.GOPA) {
            Objects.requireNonNull(gopaGraph, "GOPA needs its pairwise-secret graph");
            if (gopaGraph.vertexCount() != sizes.length) {
                throw new IllegalArgumentException("GOPA's graph has " + gopaGraph.vertexCount() + " parties but there are "
                        + sizes.length + " clients");
            }
            double s = config.clipNorm();
            this.gopa = new GopaAveraging(gopaGraph, config.noiseMultiplier() * s, config.pairwiseMultiplier() * s,
                    gradients.spec().dataType());
        } else {
            if (gopaGraph != null) {
                throw new IllegalArgumentException(config.variant().cliName() + " uses no pairwise-secret graph; pass null");
            }
            this.gopa = null;
        }
        this.local = new LocalTraining(gradients, this.clients, config.localSteps(), config.localBatchSize());
        this.theta = template.params().dup().castTo(gradients.spec().dataType()).reshape(1, gradients.spec().numParams());
    }

    @Override
    public void step() {
        int n = sizes.length;
        int[] participants = config.sampling().select(n, serverStreams.sampling(0, round));
        lastParticipants = participants;
        INDArray average;
        if (participants.length == 0) {
            lastLoss = Double.NaN;
            lastMessages = null;
            average = config.variant() == FedAvgVariant.DP_CENTRAL ? centralNoiseOnly() : null;
        } else {
            LocalTraining.Updates u = local.run(theta, participants, config.localRate().at(round), round, clientStreams);
            lastLoss = u.meanLoss();
            average = aggregate(u.deltas(), participants);
        }
        if (average != null) {
            theta.addi(average.reshape(theta.shape()).muli(config.serverRate()));
        }
        round++;
    }

    private INDArray aggregate(INDArray deltas, int[] participants) {
        int n = sizes.length;
        if (config.variant() == FedAvgVariant.FEDAVG) {
            lastMessages = deltas;
            double[] w = new double[participants.length];
            double total = 0;
            for (int j = 0; j < w.length; j++) {
                w[j] = config.weighting() == UpdateWeighting.UNIFORM ? 1.0 : sizes[participants[j]];
                total += w[j];
            }
            for (int j = 0; j < w.length; j++) {
                w[j] /= total;
            }
            return Nd4j.createFromArray(w).reshape(1, w.length).castTo(deltas.dataType()).mmul(deltas);
        }
        RowClipping.clip(deltas, config.clipNorm());
        double sigma = config.noiseMultiplier() * config.clipNorm();
        double divisor = config.sampling().expectedCount(n);
        return switch (config.variant()) {
            case DP_LOCAL -> {
                for (int j = 0; j < participants.length; j++) {
                    clientStreams.privateNoise(participants[j], round).addGaussian(deltas.getRow(j), sigma);
                }
                lastMessages = deltas;
                yield deltas.sum(0).divi(divisor);
            }
            case DP_CENTRAL -> {
                lastMessages = deltas;
                INDArray sum = deltas.sum(0);
                serverStreams.privateNoise(0, round).addGaussian(sum, sigma);
                yield sum.divi(divisor);
            }
            case GOPA -> {
                INDArray revealed = gopa.reveal(deltas, clientStreams, round);
                lastMessages = revealed;
                yield revealed.sum(0).divi(divisor);
            }
            case FEDAVG -> throw new IllegalStateException("unreachable");
        };
    }

    private INDArray centralNoiseOnly() {
        INDArray sum = Nd4j.zeros(theta.dataType(), theta.length());
        serverStreams.privateNoise(0, round).addGaussian(sum, config.noiseMultiplier() * config.clipNorm());
        return sum.divi(config.sampling().expectedCount(sizes.length));
    }

    @Override
    public long round() {
        return round;
    }

    @Override
    public long plannedRounds() {
        return config.rounds();
    }

    @Override
    public INDArray model() {
        return theta.dup().reshape(theta.length());
    }

    @Override
    public double lastLoss() {
        return lastLoss;
    }

    /** The participants of the last round. */
    public int[] lastParticipants() {
        return lastParticipants.clone();
    }

    /**
     * What the participants' uplinks carried in the last round, one row per participant: raw updates (FedAvg,
     * central DP), noisy clipped updates (local DP), GOPA's revealed values. Valid until the next step.
     */
    public INDArray lastMessages() {
        return lastMessages;
    }

    public FedAvgConfig config() {
        return config;
    }

    @Override
    public MultiLayerNetwork template() {
        return template;
    }

    @Override
    public String algorithm() {
        return config.variant().cliName();
    }

    @Override
    public long seed() {
        return config.seed();
    }

    @Override
    public Map<String, INDArray> state() {
        Map<String, INDArray> s = new LinkedHashMap<>();
        s.put("theta", theta.dup());
        return s;
    }

    @Override
    public void restore(long savedRound, Map<String, INDArray> state) {
        INDArray saved = state.get("theta");
        if (saved == null) {
            throw new IllegalArgumentException("checkpoint lacks the array 'theta' of a federated-averaging run; it is from another algorithm");
        }
        if (saved.length() != theta.length()) {
            throw new IllegalArgumentException("checkpoint holds " + saved.length() + " parameters but the model has " + theta.length());
        }
        if (savedRound < 0 || savedRound > config.rounds()) {
            throw new IllegalArgumentException("checkpoint is at round " + savedRound + " but this run has " + config.rounds() + " rounds");
        }
        theta.assign(saved.reshape(theta.shape()));
        round = savedRound;
    }
}
