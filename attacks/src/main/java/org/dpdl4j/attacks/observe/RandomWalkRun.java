package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.randomwalk.RandomWalkSgd;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Network-DP random-walk SGD (spec 7.4) on the campaign's model, tapped at the hop where the attacked party updates the
 * token. The attacked party (party 0 of {@value #PARTIES}) holds exactly one record, the target, so its update is that
 * record's clipped gradient plus its noise; the other parties hold {@value #RECORDS_PER_PARTY} training records each
 * (a seeded draw without the targets) and use local batches of {@value #LOCAL_BATCH}. The walk is planned for
 * {@value #PLANNED_STEPS} hops and calibrated as its trainer does (the most visited party within the target, local DP
 * of every visit against the next holder); it stops at party 0's first update from hop {@code attackRound} on. One run
 * per target, each with its own seed (path and noise).
 */
public final class RandomWalkRun implements ProtocolScenario {
    /** Parties on the complete graph. */
    public static final int PARTIES = 10;
    /** Records of every party other than the attacked one. */
    public static final int RECORDS_PER_PARTY = 500;
    /** Local batch of the other parties. */
    public static final int LOCAL_BATCH = 64;
    /** Hops the walk is planned (and its noise calibrated) for. */
    public static final long PLANNED_STEPS = 2000;

    @Override
    public String algorithm() {
        return RandomWalkSgd.PROTOCOL;
    }

    @Override
    public List<String> observers() {
        return List.of("next-holder");
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    @Override
    public ScenarioRun run(RunWorkload workload, double epsilon) {
        Epsilons.require(this, epsilon);
        CampaignSettings s = workload.settings();
        int[] targets = workload.targets();
        int[] helperRows = OtherRecords.draw(workload.train().size(), targets, (PARTIES - 1) * RECORDS_PER_PARTY, s.seed(),
                "random-walk-helpers", "random-walk");
        List<NodeData> helpers = new ArrayList<>();
        for (int p = 1; p < PARTIES; p++) {
            int[] rows = Arrays.copyOfRange(helperRows, (p - 1) * RECORDS_PER_PARTY, p * RECORDS_PER_PARTY);
            helpers.add(new NodeData(workload.features(rows), workload.labels(rows)));
        }
        RandomWalkObserver observer = new RandomWalkObserver();
        List<AttackCase> cases = new ArrayList<>();
        Map<String, String> calibration = new LinkedHashMap<>();
        calibration.put("model", String.format(Locale.ROOT, "the campaign's model; %d parties on the complete graph:"
                + " party 0 holds only the target, the others %d records each (local batches of %d); a walk of %d"
                + " planned hops", PARTIES, RECORDS_PER_PARTY, LOCAL_BATCH, PLANNED_STEPS));
        for (int j = 0; j < targets.length; j++) {
            int[] target = {targets[j]};
            List<NodeData> parties = new ArrayList<>();
            parties.add(new NodeData(workload.features(target), workload.labels(target)));
            parties.addAll(helpers);
            MultiLayerNetwork template = workload.newModel();
            RandomWalkSgd run = RandomWalkSgd.builder().model(template).parties(parties).steps(PLANNED_STEPS)
                    .stepSize(s.learningRate()).gradientBound(s.clipNorm()).target(epsilon, s.delta())
                    .batchSize(LOCAL_BATCH).noiseKind(NoiseKind.SEEDED).accountant(s.accountants())
                    .seed(new NoiseKey(s.seed(), "random-walk-target", j, 0).seed()).build();
            int[] path = run.path();
            long hop = -1;
            for (long t = s.attackRound(); t < path.length; t++) {
                if (path[(int) t] == 0) {
                    hop = t;
                    break;
                }
            }
            if (hop < 0) {
                throw new IllegalStateException("party 0 never holds the token between hop " + s.attackRound() + " and "
                        + PLANNED_STEPS + "; lower the attack round");
            }
            while (run.completedSteps() < hop) {
                run.step();
            }
            INDArray before = run.parameters();
            run.step();
            INDArray after = run.parameters();
            MultiLayerNetwork model = withParameters(template, before);
            RandomWalkHop seen = new RandomWalkHop(model, before, after, s.learningRate(), s.clipNorm(),
                    run.config().sigma(), 0, hop);
            double accuracy = TestAccuracy.of(template, before, workload.test());
            CaseContext context = new CaseContext(workload.truth(targets[j]), hop, accuracy,
                    Map.of("target_index", Integer.toString(targets[j]), "party", "0"));
            cases.add(observer.observe(seen, context));
            if (j == 0) {
                calibration.put("accounting", String.format(Locale.ROOT, "local DP of every visit against the next"
                        + " holder, composed over the most visited party's %d planned visits, to (epsilon %s, delta %s)",
                        run.privacy().maxVisits(), epsilon, s.delta()));
                calibration.put("noise", String.format(Locale.ROOT, "sigma = %.4g per coordinate on the clipped gradient"
                        + " (L = %s)", run.config().sigma(), s.clipNorm()));
                calibration.put(ScenarioRun.LEDGER_PRICING, ScenarioRun.ledgerPricing(run));
            }
        }
        return new ScenarioRun(algorithm(), epsilon, cases, calibration);
    }

    private static MultiLayerNetwork withParameters(MultiLayerNetwork template, INDArray params) {
        MultiLayerNetwork copy = template.clone();
        copy.setParams(params.reshape(1, params.length()).castTo(copy.params().dataType()));
        return copy;
    }

}
