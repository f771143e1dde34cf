package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.optim.DpOptimizer;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.optim.StepTap;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Central training on the whole training set with batches of exactly one example drawn uniformly each step
 * (fixed-size sampling), attacked by the receiver of each step's gradient ({@link DpSgdObserver}): plain SGD
 * ({@code sgd}) or DP-SGD ({@code dp-sgd}) through {@link PrivateTrainer}, which calibrates z for one epoch
 * (N steps at sampling rate 1/N, RDP accounting of sampling without replacement). Target j is the example drawn
 * at step {@code attackRound + j}.
 */
public final class CentralDpSgdRun implements ProtocolScenario {
    private final boolean privateRun;

    /** @param privateRun DP-SGD (true) or its non-private counterpart, plain SGD (false) */
    public CentralDpSgdRun(boolean privateRun) {
        this.privateRun = privateRun;
    }

    @Override
    public String algorithm() {
        return privateRun ? "dp-sgd" : "sgd";
    }

    @Override
    public List<String> observers() {
        return List.of("gradient");
    }

    @Override
    public boolean isPrivate() {
        return privateRun;
    }

    @Override
    public ScenarioRun run(RunWorkload workload, double epsilon) {
        Epsilons.require(this, epsilon);
        CampaignSettings s = workload.settings();
        int n = workload.train().size();
        int[] targets = workload.targets();
        long samplingSeed = new NoiseKey(s.seed(), "sampling", 0, 0).seed();
        FixedSizeSampler sampler = new FixedSizeSampler(n, 1);
        // The trainer draws its batches from this generator in order: replaying it tells which row step t takes.
        RandomGenerator preview = new SplittableRandom(samplingSeed);
        List<Integer> drawn = new ArrayList<>();
        int[][] order = {org.dpdl4j.data.RandomStreams.identity(n)};
        List<TargetPlacement.Placement> placements = TargetPlacement.place(order, targets, s.attackRound(),
                (party, round, size) -> {
                    while (drawn.size() <= round) {
                        drawn.add(sampler.sample(preview)[0]);
                    }
                    return drawn.get((int) round);
                });
        long lastStep = placements.stream().mapToLong(TargetPlacement.Placement::round).max().orElseThrow();
        INDArray x = workload.features(order[0]);
        INDArray y = workload.labels(order[0]);

        MultiLayerNetwork template = workload.newModel();
        MultiLayerNetwork net = template.clone();
        SeededNoiseSource noise = SeededNoiseSource.forKey(new NoiseKey(s.seed(), "dp-sgd", 0, 0));
        Map<Long, TargetPlacement.Placement> byStep = new LinkedHashMap<>();
        placements.forEach(p -> byStep.put(p.round(), p));
        List<AttackCase> cases = new ArrayList<>();
        DpSgdObserver observer = new DpSgdObserver();
        java.util.function.Consumer<StepTap> tapper = tap -> {
            TargetPlacement.Placement p = byStep.get(tap.iteration());
            if (p != null) {
                double accuracy = TestAccuracy.of(template, tap.parameters(), workload.test());
                cases.add(observer.observe(new DpSgdRelease(tap, template), new CaseContext(workload.truth(p.target()),
                        tap.iteration(), accuracy, details(p))));
            }
        };
        Map<String, String> calibration = new LinkedHashMap<>();
        calibration.put("model", "batch of 1 example per step, drawn uniformly from the " + n + " training examples");
        if (privateRun) {
            DpSgdConfig config = DpSgdConfig.forTarget(s.clipNorm(), epsilon, s.delta(), 1, 1.0)
                    .withSampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT);
            PrivateTrainer trainer = PrivateTrainer.builder(net, config).data(x, y).noise(noise)
                    .sampling(new SplittableRandom(samplingSeed)).accountant(s.accountants()).build();
            trainer.addObserver(tapper::accept);
            calibration.put(ScenarioRun.LEDGER_PRICING, ScenarioRun.ledgerPricing(trainer));
            for (long step = 0; step <= lastStep; step++) {
                trainer.step();
            }
            calibration.put("accounting", String.format(Locale.ROOT, "the subsampled Gaussian (sampling without"
                    + " replacement, replace-one), example level, %d planned steps (1 epoch) at rate 1/%d, delta %s",
                    trainer.plannedSteps(), n, s.delta()));
            calibration.put("noise", String.format(Locale.ROOT, "z = %.4g, C = %s: noise std %.4g on the released"
                    + " gradient", trainer.noiseMultiplier(), s.clipNorm(), trainer.noiseMultiplier() * s.clipNorm()));
        } else {
            DpOptimizer sgd = new DpOptimizer(net, Double.POSITIVE_INFINITY, 0.0, 1, noise);
            sgd.addObserver(tapper::accept);
            RandomGenerator random = new SplittableRandom(samplingSeed);
            for (long step = 0; step <= lastStep; step++) {
                int[] rows = sampler.sample(random);
                sgd.step(Nd4j.pullRows(x, 1, rows), Nd4j.pullRows(y, 1, rows));
            }
            calibration.put("noise", "none (plain SGD, no clipping)");
        }
        return new ScenarioRun(algorithm(), epsilon, cases, calibration);
    }

    private static Map<String, String> details(TargetPlacement.Placement p) {
        return Map.of("target_index", Integer.toString(p.target()), "party", "0", "local_row",
                Integer.toString(p.row()), "release", "step " + p.round() + ": batch = {training example "
                        + p.target() + "}");
    }
}
