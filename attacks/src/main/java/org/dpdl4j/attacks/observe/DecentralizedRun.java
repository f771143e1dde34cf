package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedCalibration;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.DecorCompatibility;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.protocol.decentralized.NoisePairChoice;
import org.dpdl4j.protocol.decentralized.RoundTap;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A gossip run of the decentralized engine on MNIST split evenly over 16 nodes, each node drawing one example per
 * round (fixed-size sampling, example-level privacy, mean objective), attacked by the observers of spec table 8.5:
 * <ul>
 *   <li>{@code dsgd} (ring, Metropolis-Hastings): eavesdropper, average model;</li>
 *   <li>{@code decor} (ring): eavesdropper, curious neighbour (the next node on the ring), average model; the noise
 *       pair with the smallest sigma_cdp calibrated against curious users (adversary II), whose guarantee covers
 *       both the eavesdropper and a neighbour;</li>
 *   <li>{@code ldp} (ring): eavesdropper;</li>
 *   <li>{@code cdp} (complete graph, exact averaging): average model.</li>
 * </ul>
 * Noise is calibrated by {@link DecentralizedCalibration} for {@value #PLANNED_ROUNDS} planned rounds, as the
 * decentralized trainer does. Target j is the example node {@code j mod 16} draws in round
 * {@code attackRound + j / 16}.
 */
public final class DecentralizedRun implements ProtocolScenario {
    /** Nodes of the graph (Decor's MNIST setting). */
    public static final int NODES = 16;
    /** Rounds the noise is calibrated for (Decor's MNIST setting). */
    public static final long PLANNED_ROUNDS = 1000;

    private final DecentralizedAlgorithm algorithm;

    public DecentralizedRun(DecentralizedAlgorithm algorithm) {
        this.algorithm = java.util.Objects.requireNonNull(algorithm, "algorithm must not be null");
    }

    @Override
    public String algorithm() {
        return algorithm.cliName();
    }

    @Override
    public List<String> observers() {
        return switch (algorithm) {
            case DSGD -> List.of("eavesdropper", "average model");
            case DECOR -> List.of("eavesdropper", "neighbour", "average model");
            case LDP -> List.of("eavesdropper");
            case CDP -> List.of("average model");
        };
    }

    @Override
    public boolean isPrivate() {
        return algorithm.isPrivate();
    }

    private Graph graph() {
        return algorithm == DecentralizedAlgorithm.CDP ? Topologies.complete(NODES) : Topologies.ring(NODES);
    }

    private Adversary adversary() {
        return algorithm == DecentralizedAlgorithm.DECOR ? Adversary.curious() : Adversary.eavesdropper();
    }

    @Override
    public ScenarioRun run(RunWorkload workload, double epsilon) {
        Epsilons.require(this, epsilon);
        CampaignSettings s = workload.settings();
        Graph graph = graph();
        MixingMatrix mixing = algorithm.defaultMixing(graph);
        SeededNoiseStreams streams = new SeededNoiseStreams(s.seed());
        int[][] parties = TargetPlacement.split(workload.train().size(), NODES, s.seed());
        TargetPlacement.SampledRow sampled = (node, round, size) ->
                new FixedSizeSampler(size, 1).sample(streams.sampling(node, round))[0];
        List<TargetPlacement.Placement> placements = TargetPlacement.place(parties, workload.targets(),
                s.attackRound(), sampled);
        List<NodeData> data = new ArrayList<>();
        long minLocal = Long.MAX_VALUE;
        for (int[] rows : parties) {
            data.add(new NodeData(workload.features(rows), workload.labels(rows)));
            minLocal = Math.min(minLocal, rows.length);
        }

        Map<String, String> calibration = new LinkedHashMap<>();
        calibration.put("model", String.format(Locale.ROOT, "%d nodes on a %s, %d examples each, 1 example per node"
                + " and round (fixed-size sampling)", NODES, algorithm == DecentralizedAlgorithm.CDP
                ? "complete graph with exact averaging" : "ring (Metropolis-Hastings gossip)", minLocal));
        double sigmaCdp = 0;
        double sigmaCor = 0;
        if (algorithm.isPrivate()) {
            DecentralizedCalibration.Result c = DecentralizedCalibration.calibrate(algorithm, ProtectedUnit.EXAMPLE,
                    SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT, s.clipNorm(), 1, minLocal, PLANNED_ROUNDS, epsilon,
                    s.delta(), graph, adversary(), NoisePairChoice.SMALLEST_SIGMA_CDP, s.accountants());
            sigmaCdp = c.sigmaCdp();
            sigmaCor = c.sigmaCor();
            calibration.put("accounting", String.format(Locale.ROOT, "example level, sampling without"
                    + " replacement (rate 1/%d, replace-one), %d planned rounds, delta %s; per-round kappa budget"
                    + " %.4g%s", minLocal, PLANNED_ROUNDS, s.delta(), c.kappaBudget(),
                    algorithm == DecentralizedAlgorithm.DECOR ? ", SecRDP against " + adversary().describe() : ""));
            calibration.put("noise", String.format(Locale.ROOT, "sigma_cdp = %.4g%s, C = %s", sigmaCdp,
                    algorithm == DecentralizedAlgorithm.DECOR ? String.format(Locale.ROOT, ", sigma_cor = %.4g",
                            sigmaCor) : "", s.clipNorm()));
        } else {
            calibration.put("noise", "none (D-SGD, no clipping)");
        }
        DecentralizedConfig config = new DecentralizedConfig(algorithm, ProtectedUnit.EXAMPLE, LocalObjective.MEAN,
                s.clipNorm(), sigmaCdp, sigmaCor, new LearningRate.Constant(s.learningRate()), 0.0, 1,
                SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT, PLANNED_ROUNDS, s.seed(), DecorCompatibility.NONE);

        MultiLayerNetwork template = workload.newModel();
        List<AttackCase> cases = new ArrayList<>();
        long lastRound = placements.stream().mapToLong(TargetPlacement.Placement::round).max().orElseThrow();
        try (DecentralizedTrainer trainer = DecentralizedTrainer.builder().config(config).model(template).graph(graph).mixing(mixing)
                .nodeData(data).streams(streams).adversary(adversary()).delta(s.delta()).accountant(s.accountants())
                .build()) {
            if (algorithm.isPrivate()) {
                calibration.put(ScenarioRun.LEDGER_PRICING, ScenarioRun.ledgerPricing(trainer));
            }
            trainer.addObserver(tap -> {
                List<TargetPlacement.Placement> now = placements.stream().filter(p -> p.round() == tap.round()).toList();
                if (now.isEmpty()) {
                    return;
                }
                INDArray released = observers().contains("average model")
                        ? noiseFreeReleases(tap, template, config, parties, sampled, workload) : null;
                for (TargetPlacement.Placement p : now) {
                    cases.addAll(observe(tap, p, template, config, released, workload));
                }
            });
            trainer.run(lastRound + 1);
        }
        return new ScenarioRun(algorithm(), epsilon, cases, calibration);
    }

    private List<AttackCase> observe(RoundTap tap, TargetPlacement.Placement p, MultiLayerNetwork template,
                                     DecentralizedConfig config, INDArray released, RunWorkload workload) {
        GossipRound round = new GossipRound(tap, p.party(), template);
        double accuracy = TestAccuracy.of(template, tap.before().getRow(p.party()), workload.test());
        Map<String, String> details = Map.of("target_index", Integer.toString(p.target()), "party",
                Integer.toString(p.party()), "local_row", Integer.toString(p.row()), "release", "round " + p.round()
                        + ": node " + p.party() + " sampled training example " + p.target());
        CaseContext context = new CaseContext(workload.truth(p.target()), tap.round(), accuracy, details);
        List<AttackCase> out = new ArrayList<>();
        for (String observer : observers()) {
            out.add(switch (observer) {
                case "eavesdropper" -> new GossipEavesdropper(config).observe(round, context);
                case "neighbour" -> new CuriousNeighbour(config, (p.party() + 1) % NODES).observe(round, context);
                case "average model" -> {
                    INDArray others = released.sum(0).subi(released.getRow(p.party()));
                    yield new AverageModelObserver(config).observe(new AverageModelView(round, others), context);
                }
                default -> throw new IllegalStateException(observer);
            });
        }
        return out;
    }

    /**
     * Every node's noise-free released gradient of the round ([n, p]): the same batched clipped pass the engine
     * runs, on the example each node samples. The average-model observer subtracts the other nodes' rows (it is
     * assumed to know their data and sampling).
     */
    private static INDArray noiseFreeReleases(RoundTap tap, MultiLayerNetwork template, DecentralizedConfig config,
                                              int[][] parties, TargetPlacement.SampledRow sampled,
                                              RunWorkload workload) {
        int n = parties.length;
        int[] rows = new int[n];
        for (int j = 0; j < n; j++) {
            rows[j] = parties[j][sampled.at(j, tap.round(), parties[j].length)];
        }
        INDArray features = workload.features(rows).reshape(n, 1, workload.train().numFeatures());
        INDArray labels = workload.labels(rows).reshape(n, 1, workload.train().numClasses());
        INDArray out = Nd4j.create(DataType.FLOAT, n, template.numParams());
        double clip = config.algorithm().isPrivate() ? config.clipNorm() : Double.POSITIVE_INFINITY;
        PerExampleGradients.of(template).clippedSum(tap.before(), features, labels, null, clip, out);
        return out.divi(config.batchSize());
    }
}
