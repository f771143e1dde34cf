package org.dpdl4j.attacks.observe;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.dpdl4j.protocol.federated.Mu2Constants;
import org.dpdl4j.protocol.federated.Mu2Setup;
import org.dpdl4j.protocol.federated.Mu2Privacy;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.protocol.federated.Mu2StepSize;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.protocol.federated.NoiseSchedule;
import org.dpdl4j.protocol.federated.ParameterBall;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A DP-mu^2-FL run on MNIST split evenly over {@value #MACHINES} machines (the paper's M = 10, T = 6000: every
 * training example used once, in order, one per machine and round), attacked by:
 * <ul>
 *   <li>{@code mu2-sgd} (no noise, no clipping, no projection): the server and another machine;</li>
 *   <li>{@code mu2-untrusted}: the server, which sees each machine's noisy messages;</li>
 *   <li>{@code mu2-trusted}: another machine, which sees the query points the trusted server broadcasts.</li>
 * </ul>
 * The network is not convex, so the constants are given and set the safety clip: G = C, L = 0, D = {@value #DIAMETER}
 * (a ball the iterates never reach), hence {@code S = G + 2LD = C}; sigma is calibrated in closed form for T rounds
 * (Mu2Setup) and eta follows spec 4.5. Target j is the example machine {@code j mod 10} uses in round
 * {@code attackRound + j / 10}.
 */
public final class Mu2Run implements ProtocolScenario {
    /** Machines. */
    public static final int MACHINES = 10;
    /** Rounds planned and calibrated for: each machine's examples are used once. */
    public static final long PLANNED_ROUNDS = 6000;
    /** Diameter of the parameter ball. */
    public static final double DIAMETER = 100;

    private final String name;
    private final ServerTrust trust;

    private Mu2Run(String name, ServerTrust trust) {
        this.name = name;
        this.trust = trust;
    }

    /** Plain mu^2-SGD over the machines, observed by the server and by another machine. */
    public static Mu2Run nonPrivate() {
        return new Mu2Run("mu2-sgd", null);
    }

    /** DP-mu^2-FL with an untrusted (machines add noise) or trusted (the server adds noise) server. */
    public static Mu2Run of(ServerTrust trust) {
        return new Mu2Run(trust == ServerTrust.UNTRUSTED ? "mu2-untrusted" : "mu2-trusted",
                java.util.Objects.requireNonNull(trust, "trust must not be null"));
    }

    @Override
    public String algorithm() {
        return name;
    }

    @Override
    public List<String> observers() {
        if (trust == null) {
            return List.of("server", "machine");
        }
        return trust == ServerTrust.UNTRUSTED ? List.of("server") : List.of("machine");
    }

    @Override
    public boolean isPrivate() {
        return trust != null;
    }

    @Override
    public ScenarioRun run(RunWorkload workload, double epsilon) {
        Epsilons.require(this, epsilon);
        CampaignSettings s = workload.settings();
        MultiLayerNetwork template = workload.newModel();
        long d = template.numParams();
        Mu2Constants constants = Mu2Constants.given(s.clipNorm(), 0.0, DIAMETER);
        Map<String, String> calibration = new LinkedHashMap<>();
        Mu2Config config;
        Mu2Privacy privacy = null;
        if (trust == null) {
            double eta = Mu2StepSize.of(constants, PLANNED_ROUNDS, MACHINES, d, 0.0, ServerTrust.TRUSTED);
            config = new Mu2Config(ServerTrust.TRUSTED, PLANNED_ROUNDS, 1, eta, ParameterBall.unbounded(),
                    Double.POSITIVE_INFINITY, NoiseSchedule.none(), s.seed());
            calibration.put("noise", String.format(Locale.ROOT, "none (mu^2-SGD, no clipping, no projection), eta ="
                    + " %.4g", eta));
        } else {
            Mu2Setup setup = Mu2Setup.calibrated(trust, constants, MACHINES, PLANNED_ROUNDS, 1, d, epsilon, s.delta(),
                    s.seed(), s.accountants());
            config = setup.config();
            privacy = setup.privacy();
            calibration.put("accounting", String.format(Locale.ROOT, "record level per machine (replace-one),"
                    + " sensitivity 2S with the safety clip S = %s, %d planned Gaussian rounds, delta %s",
                    constants.sensitivityBound(), PLANNED_ROUNDS, s.delta()));
            calibration.put("noise", String.format(Locale.ROOT, "sigma = %.4g %s, eta = %.4g", setup.sigma(),
                    trust == ServerTrust.UNTRUSTED ? "on every message" : "on the aggregate", config.stepSize()));
        }
        calibration.put("model", String.format(Locale.ROOT, "%d machines, %d examples each used once in order, one"
                + " per machine and round", MACHINES, workload.train().size() / MACHINES));

        int[][] parties = TargetPlacement.split(workload.train().size(), MACHINES, s.seed());
        List<TargetPlacement.Placement> placements = TargetPlacement.place(parties, workload.targets(),
                s.attackRound(), (machine, round, size) -> (int) round);
        List<NodeData> data = new ArrayList<>();
        for (int[] rows : parties) {
            data.add(new NodeData(workload.features(rows), workload.labels(rows)));
        }
        long lastRound = placements.stream().mapToLong(TargetPlacement.Placement::round).max().orElseThrow();
        List<AttackCase> cases = new ArrayList<>();
        try (Mu2Trainer trainer = Mu2Trainer.of(template, data, config, new SeededNoiseStreams(s.seed()), privacy,
                PrivacyBudget.unlimited(s.delta()))) {
            if (privacy != null) {
                calibration.put(ScenarioRun.LEDGER_PRICING, ScenarioRun.ledgerPricing(trainer));
            }
            Deque<INDArray> points = new ArrayDeque<>();
            points.addLast(trainer.iterates().x().dup());
            points.addLast(trainer.iterates().x().dup());
            points.addLast(trainer.iterates().x().dup());
            INDArray previousMessages = trainer.machines().dhat().dup().muli(0);
            while (trainer.round() <= lastRound) {
                long round = trainer.round();
                long t = round + 1;
                INDArray dhatBefore = trainer.machines().dhat().dup();
                trainer.step();
                INDArray messages = trainer.lastMessages().dup();
                points.addLast(trainer.iterates().x().dup());
                while (points.size() > 4) {
                    points.removeFirst();
                }
                INDArray[] x = points.toArray(INDArray[]::new);
                List<TargetPlacement.Placement> now = placements.stream().filter(p -> p.round() == round).toList();
                if (!now.isEmpty()) {
                    INDArray increments = trainer.machines().dhat().sub(dhatBefore);
                    double accuracy = TestAccuracy.of(template, x[2], workload.test());
                    for (TargetPlacement.Placement p : now) {
                        cases.addAll(observe(config, p, t, template, x, messages, previousMessages, increments,
                                accuracy, workload));
                    }
                }
                previousMessages = messages;
            }
        }
        return new ScenarioRun(algorithm(), epsilon, cases, calibration);
    }

    private List<AttackCase> observe(Mu2Config config, TargetPlacement.Placement p, long t, MultiLayerNetwork template,
                                     INDArray[] x, INDArray messages, INDArray previousMessages, INDArray increments,
                                     double accuracy, RunWorkload workload) {
        int i = p.party();
        long length = template.numParams();
        Map<String, String> details = Map.of("target_index", Integer.toString(p.target()), "party",
                Integer.toString(i), "local_row", Integer.toString(p.row()), "release", "round t = " + t + ": machine "
                        + i + " used training example " + p.target());
        CaseContext context = new CaseContext(workload.truth(p.target()), p.round(), accuracy, details);
        List<AttackCase> out = new ArrayList<>();
        for (String observer : observers()) {
            out.add(switch (observer) {
                case "server" -> new Mu2ServerObserver(config).observe(new Mu2Uplink(template, x[2], x[1], t,
                        messages.getRow(i), previousMessages.getRow(i), i), context);
                case "machine" -> {
                    INDArray others = increments.sum(0).reshape(1, length).subi(increments.getRow(i).reshape(1, length));
                    yield new Mu2MachineObserver(config, MACHINES).observe(new Mu2Broadcasts(template, x, t, i, others),
                            context);
                }
                default -> throw new IllegalStateException(observer);
            });
        }
        return out;
    }
}
