package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.recal.BatonPublication;
import org.dpdl4j.protocol.recal.BatonWalk;
import org.dpdl4j.protocol.recal.CompositeProblem;
import org.dpdl4j.protocol.recal.DecayingNoisePrivacy;
import org.dpdl4j.protocol.recal.LocalProblem;
import org.dpdl4j.protocol.recal.Penalty;
import org.dpdl4j.protocol.recal.PrimalDualAlgorithm;
import org.dpdl4j.protocol.recal.PrimalDualRunBuilder;
import org.dpdl4j.protocol.recal.RelayRecal;
import org.dpdl4j.protocol.recal.SmoothLoss;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * RECAL / DP-RECAL on the distributed Lasso (spec 5.6, Figure 5), tapped on the baton. The relay's agent computes
 * its gradient over all its records, so the attacked agent (agent 0 of a ring of {@value #AGENTS}) holds exactly
 * one record, the target; the other agents hold {@value #RECORDS_PER_AGENT} training records each (a seeded draw
 * without the targets). The model is linear least squares with an intercept on one-hot labels, the penalty
 * {@code lambda ||X||_1} with lambda a fraction {@value #LAMBDA_FRACTION} of lambda_max of the other agents' data.
 * The run is planned for {@value #PLANNED_ITERATIONS} iterations (Table V's budget: LCI about 600 on the ring) and
 * calibrated for it as the trainer does (every agent for its number of publications on the drawn path, zeta =
 * {@value #ZETA}); it stops at agent 0's first publication from iteration {@code attackRound} on, which both
 * observers attack. One run per target, each with its own seed (path and noise).
 */
public final class RelayRecalRun implements ProtocolScenario {
    /** Agents on the ring. */
    public static final int AGENTS = 8;
    /** Records of every agent other than the attacked one. */
    public static final int RECORDS_PER_AGENT = 500;
    /** Iterations the run is planned (and its noise calibrated) for. */
    public static final long PLANNED_ITERATIONS = 4800;
    /** The noise attenuation of DP-RECAL. */
    public static final double ZETA = 0.99;
    /** lambda as a fraction of lambda_max. */
    public static final double LAMBDA_FRACTION = 0.05;

    private final boolean privateRun;

    /** @param privateRun DP-RECAL (true) or RECAL (false) */
    public RelayRecalRun(boolean privateRun) {
        this.privateRun = privateRun;
    }

    @Override
    public String algorithm() {
        return privateRun ? RelayRecal.DP_RECAL : RelayRecal.RECAL;
    }

    @Override
    public List<String> observers() {
        return List.of("eavesdropper", "increment");
    }

    @Override
    public boolean isPrivate() {
        return privateRun;
    }

    @Override
    public ScenarioRun run(RunWorkload workload, double epsilon) {
        Epsilons.require(this, epsilon);
        CampaignSettings s = workload.settings();
        int[] targets = workload.targets();
        int[] helperRows = OtherRecords.draw(workload.train().size(), targets, (AGENTS - 1) * RECORDS_PER_AGENT, s.seed(),
                "recal-helpers", "relay");
        List<LocalProblem> helpers = new ArrayList<>();
        for (int a = 1; a < AGENTS; a++) {
            int[] rows = Arrays.copyOfRange(helperRows, (a - 1) * RECORDS_PER_AGENT, a * RECORDS_PER_AGENT);
            helpers.add(localProblem(workload.features(rows), workload.labels(rows)));
        }
        double lambda = LAMBDA_FRACTION * lambdaMax(helpers);
        Graph ring = Topologies.ring(AGENTS);
        MultiLayerNetwork template = new MultiLayerNetwork(LeastSquaresModel.configuration(workload.train().numFeatures(),
                workload.train().numClasses(), true, ModelOptions.defaults().withSeed(s.seed()).withDataType(DataType.FLOAT)));
        template.init();
        BatonEavesdropper eavesdropper = new BatonEavesdropper(algorithm());
        BatonIncrementObserver increment = new BatonIncrementObserver(algorithm());
        List<AttackCase> cases = new ArrayList<>();
        Map<String, String> calibration = new LinkedHashMap<>();
        calibration.put("model", String.format(Locale.ROOT, "linear least squares with intercept on one-hot labels, l1"
                        + " penalty %.4g (%.2g lambda_max); %d agents on a ring: agent 0 holds only the target, the others %d"
                        + " records each; baton path of %d planned iterations", lambda, LAMBDA_FRACTION, AGENTS,
                RECORDS_PER_AGENT, PLANNED_ITERATIONS));
        for (int j = 0; j < targets.length; j++) {
            int[] target = {targets[j]};
            List<LocalProblem> agents = new ArrayList<>();
            agents.add(localProblem(workload.features(target), workload.labels(target)));
            agents.addAll(helpers);
            long seed = new NoiseKey(s.seed(), "recal-target", j, 0).seed();
            PrimalDualRunBuilder builder = PrimalDualRunBuilder.of(privateRun ? PrimalDualAlgorithm.DP_RECAL
                            : PrimalDualAlgorithm.RECAL).model(template)
                    .problem(new CompositeProblem(agents, Penalty.l1(lambda), true)).graph(ring)
                    .iterations(PLANNED_ITERATIONS).noiseKind(NoiseKind.SEEDED).seed(seed).accountant(s.accountants());
            if (privateRun) {
                // priced as the paper prices it, as Figure 5's comparison is (the ledger is marked not a guarantee)
                builder.clip(s.clipNorm()).zeta(ZETA).target(epsilon, s.delta()).paperAccounting(true);
            }
            RelayRecal run = (RelayRecal) builder.build();
            BatonPublication[] captured = new BatonPublication[1];
            run.tapPublications(p -> {
                if (captured[0] == null && p.agent() == 0 && p.iteration() >= s.attackRound()) {
                    captured[0] = p;
                }
            });
            while (captured[0] == null && !run.isFinished()) {
                run.step();
            }
            if (captured[0] == null) {
                throw new IllegalStateException("agent 0 never held the baton between iteration " + s.attackRound() + " and "
                        + PLANNED_ITERATIONS + "; lower the attack round");
            }
            BatonPublication p = captured[0];
            BatonRelease release = new BatonRelease(p, run.linearModel(), privateRun ? s.clipNorm() : Double.POSITIVE_INFINITY);
            double accuracy = TestAccuracy.of(template, run.linearModel().flat(p.xOld()), workload.test());
            CaseContext context = new CaseContext(workload.truth(targets[j]), p.iteration(), accuracy,
                    Map.of("target_index", Integer.toString(targets[j]), "party", "0",
                            "publication", Long.toString(p.activation())));
            cases.add(eavesdropper.observe(release, context));
            cases.add(increment.observe(release, context));
            if (j == 0) {
                describe(run, calibration, epsilon, s.delta());
                if (privateRun) {
                    calibration.put(ScenarioRun.LEDGER_PRICING, ScenarioRun.ledgerPricing(run));
                }
            }
        }
        return new ScenarioRun(algorithm(), epsilon, cases, calibration);
    }

    private void describe(RelayRecal run, Map<String, String> calibration, double epsilon, double delta) {
        DecayingNoisePrivacy privacy = run.privacy();
        if (privacy == null) {
            calibration.put("noise", "none (RECAL, no clipping)");
            return;
        }
        long planned = BatonWalk.activations(AGENTS, run.path())[0];
        calibration.put("accounting", String.format(Locale.ROOT, "record level, agent 0's %d planned Gaussian publications"
                        + " (rho_m = Delta^2 / (2 sigma^2 zeta^(m-1)) each, composed to one Gaussian mechanism),"
                        + " to (epsilon %s, delta %s); replace-one; the paper's pricing (the agent's state conditioned on),"
                        + " not a proven bound",
                planned, epsilon, delta));
        calibration.put("noise", String.format(Locale.ROOT, "sigma_0 = %.4g on the dual (sensitivity 4 beta tau G_rec = %.4g,"
                        + " G_rec = %s), zeta = %s: std %.4g on the gradient at the first publication",
                privacy.sigma(0), privacy.sensitivity(0), run.clip(), privacy.zeta(),
                privacy.sigma(0) / (2 * run.steps().beta()[0] * run.steps().tau()[0])));
    }


    private static LocalProblem localProblem(INDArray features, INDArray labels) {
        INDArray f = features.castTo(DataType.DOUBLE);
        return new LocalProblem(Nd4j.hstack(f, Nd4j.ones(DataType.DOUBLE, f.size(0), 1)), labels, SmoothLoss.LEAST_SQUARES);
    }

    /** {@code ||sum_i A_i^T B_i||_inf} over the penalised rows: the scale of lambda (lambda_max of the model without intercept). */
    private static double lambdaMax(List<LocalProblem> agents) {
        INDArray sum = null;
        for (LocalProblem p : agents) {
            INDArray g = p.features().transpose().mmul(p.targets());
            sum = sum == null ? g : sum.addi(g);
        }
        return sum.get(NDArrayIndex.interval(0, sum.rows() - 1), NDArrayIndex.all()).amaxNumber().doubleValue();
    }
}
