package org.dpdl4j.attacks.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.GradientForm;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.RowClipping;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.ClientSampling;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.dpdl4j.protocol.federated.Mu2Constants;
import org.dpdl4j.protocol.federated.Mu2Iterates;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.protocol.federated.Mu2Privacy;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.protocol.federated.NoiseSchedule;
import org.dpdl4j.protocol.federated.ParameterBall;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.protocol.federated.UpdateWeighting;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The observers of the FedAvg family and of DP-mu^2-FL on real runs of the federated trainers (double precision,
 * small networks): each observed vector is the attacked example's (clipped) gradient, or mu^2's increment, times the
 * case's scale, plus exactly the noise the run drew, regenerated here from the seeded streams.
 */
class FederatedObserversTest {
    private static final ImageShape SHAPE = RandomExamples.SHAPE;
    private static final int CLASSES = 3;
    private static final int PARTIES = 4;
    private static final int LOCAL = 6;
    private static final double LR = 0.2;

    private static GroundTruth examples(int m, long seed) {
        return RandomExamples.of(m, CLASSES, seed);
    }

    private static GroundTruth row(GroundTruth data, int r) {
        return RandomExamples.row(data, r);
    }

    private static INDArray gradient(MultiLayerNetwork template, INDArray params, GroundTruth example) {
        MultiLayerNetwork model = template.clone();
        model.setParams(params.dup().reshape(1, model.numParams()));
        return NetworkGradients.sumOverBatch(model, example.inputs(),
                LabelRows.of(example.labels(), CLASSES, DataType.DOUBLE));
    }

    private static INDArray clipped(INDArray g, double clip) {
        return g.mul(Math.min(1.0, clip / g.norm2Number().doubleValue()));
    }

    private static double relativeDifference(INDArray actual, INDArray expected) {
        return actual.reshape(-1).sub(expected.reshape(-1)).norm2Number().doubleValue()
                / expected.norm2Number().doubleValue();
    }

    private static final class Clients {
        final MultiLayerNetwork template = TestNetworks.mlp(16, new int[] {5}, CLASSES, Activation.SIGMOID, 3,
                DataType.DOUBLE);
        final List<GroundTruth> local = new ArrayList<>();
        final List<NodeData> data = new ArrayList<>();

        Clients() {
            for (int k = 0; k < PARTIES; k++) {
                GroundTruth d = examples(LOCAL, 40 + k);
                local.add(d);
                data.add(new NodeData(d.inputs(), LabelRows.of(d.labels(), CLASSES, DataType.DOUBLE)));
            }
        }

        /** The example client k steps on in a round (one local step on a batch of one). */
        GroundTruth sampled(SeededNoiseStreams streams, int k, long round) {
            return row(local.get(k), new FixedSizeSampler(LOCAL, 1).sample(streams.sampling(k, round))[0]);
        }
    }

    private static FedAvgConfig config(FedAvgVariant variant, double clip, double z, double pairwise) {
        return new FedAvgConfig(variant, 3, 1, 1, new LearningRate.Constant(LR), 1.0, new ClientSampling.Everyone(),
                UpdateWeighting.UNIFORM, clip, z, pairwise, 5);
    }

    @Test
    void fedAvgServerAndAggregateSeeTheExactGradient() {
        Clients c = new Clients();
        FedAvgConfig config = FedAvgConfig.plain(3, 1, 1, new LearningRate.Constant(LR), new ClientSampling.Everyone(),
                UpdateWeighting.UNIFORM, 5);
        SeededNoiseStreams streams = new SeededNoiseStreams(5);
        try (FedAvgTrainer trainer = FedAvgTrainer.of(c.template, c.data, config, streams, new SeededNoiseStreams(6),
                null, null)) {
            trainer.step();
            INDArray before = trainer.parameters();
            trainer.step();
            INDArray after = trainer.parameters();
            INDArray messages = trainer.lastMessages();
            int k = 2;
            GroundTruth truth = c.sampled(streams, k, 1);
            CaseContext context = new CaseContext(truth, 1, Double.NaN, Map.of());
            INDArray g = gradient(c.template, before, truth);
            AttackCase server = new FedAvgServerObserver().observe(new FedAvgUpload(Mu2Releases.at(c.template, before),
                    before.reshape(1, -1).add(messages.getRow(k).reshape(1, -1)), LR, 1, 1, 0.0), context);
            assertTrue(relativeDifference(server.observed().div(-LR), g) < 1e-9, "update / -eta = gradient");
            INDArray others = messages.sum(0).reshape(1, -1).subi(messages.getRow(k).reshape(1, -1)).divi(PARTIES);
            AttackCase aggregate = new FedAvgAggregateObserver(config, PARTIES).observe(new AggregateView(c.template,
                    before, after, k, 1, 1.0 / PARTIES, others), context);
            assertTrue(relativeDifference(aggregate.observed().div(aggregate.scale().factor()), g) < 1e-9);
            assertEquals(-LR / PARTIES, aggregate.scale().factor(), 1e-15);
            assertTrue(aggregate.scale().knownToAttacker());
        }
    }

    @Test
    void dpFedAvgObserversSeeTheClippedUpdatePlusTheRegeneratedNoise() {
        Clients c = new Clients();
        double clip = 0.02;
        SeededNoiseStreams clients = new SeededNoiseStreams(5);
        SeededNoiseStreams server = new SeededNoiseStreams(6);
        long p = c.template.numParams();
        for (FedAvgVariant variant : List.of(FedAvgVariant.DP_LOCAL, FedAvgVariant.DP_CENTRAL)) {
            FedAvgConfig config = config(variant, clip, 1.3, 0);
            try (FedAvgTrainer trainer = FedAvgTrainer.of(c.template, c.data, config, clients, server, null, PrivacyBudget.unlimited(1e-5))) {
                INDArray before = trainer.parameters();
                trainer.step();
                INDArray after = trainer.parameters();
                INDArray messages = trainer.lastMessages();
                int k = 1;
                GroundTruth truth = c.sampled(clients, k, 0);
                CaseContext context = new CaseContext(truth, 0, Double.NaN, Map.of());
                INDArray update = clipped(gradient(c.template, before, truth).muli(-LR), clip);
                AttackCase seen;
                INDArray noise;
                if (variant == FedAvgVariant.DP_LOCAL) {
                    seen = new DpFedAvgLocalObserver(config).observe(new ClientMessage(c.template, before,
                            messages.getRow(k), k, 0), context);
                    noise = clients.privateNoise(k, 0).gaussian(DataType.DOUBLE, 1.3 * clip, 1, p);
                } else {
                    INDArray raw = gradient(c.template, before, truth).muli(-LR);
                    assertTrue(raw.norm2Number().doubleValue() > clip, "the clip must be active for this check");
                    assertTrue(relativeDifference(messages.getRow(k), raw) < 1e-8,
                            "central DP: the uplink carries the raw update; the server clips its own copy");
                    INDArray summed = messages.dup();
                    RowClipping.clip(summed, clip);
                    INDArray others = summed.sum(0).reshape(1, p).subi(summed.getRow(k).reshape(1, p))
                            .divi(PARTIES);
                    seen = new FedAvgAggregateObserver(config, PARTIES).observe(new AggregateView(c.template, before,
                            after, k, 0, 1.0 / PARTIES, others), context);
                    noise = server.privateNoise(0, 0).gaussian(DataType.DOUBLE, 1.3 * clip, p).divi(PARTIES);
                    update.divi(PARTIES);
                }
                // Private scales are folded to be positive: the observation is -(release).
                assertTrue(relativeDifference(seen.observed().neg().sub(noise.reshape(1, p)), update) < 1e-8,
                        variant + ": release - noise = clipped update");
                assertFalse(seen.scale().knownToAttacker());
                assertEquals(variant == FedAvgVariant.DP_LOCAL ? 1.3 * clip : 1.3 * clip / PARTIES, seen.noiseStd(),
                        1e-15);
            }
        }
    }

    @Test
    void gopaColludersRemoveTheirPairwiseTermsAndKeepTheRest() {
        Clients c = new Clients();
        double clip = 0.02;
        FedAvgConfig config = config(FedAvgVariant.GOPA, clip, 0.5, 3.0);
        Graph graph = Topologies.complete(PARTIES);
        SeededNoiseStreams clients = new SeededNoiseStreams(5);
        long p = c.template.numParams();
        try (FedAvgTrainer trainer = FedAvgTrainer.of(c.template, c.data, config, clients, new SeededNoiseStreams(6),
                graph, PrivacyBudget.unlimited(1e-5))) {
            INDArray before = trainer.parameters();
            trainer.step();
            INDArray revealed = trainer.lastMessages();
            int k = 2;
            GroundTruth truth = c.sampled(clients, k, 0);
            INDArray u = new PairwiseNoise(graph, DataType.DOUBLE).edgeNoise(clients, 0, p, 3.0 * clip);
            INDArray fromOne = u.getRow(graph.edgeIndex(1, 2)).neg().reshape(1, p);   // 2 > 1: node 2 subtracts u
            INDArray fromThree = u.getRow(graph.edgeIndex(2, 3)).reshape(1, p);
            INDArray fromZero = u.getRow(graph.edgeIndex(0, 2)).neg().reshape(1, p);
            AttackCase seen = new GopaObserver(config).observe(new GopaView(new ClientMessage(c.template, before,
                    revealed.getRow(k), k, 0), fromOne.add(fromThree), 1), new CaseContext(truth, 0, Double.NaN,
                    Map.of()));
            INDArray privateNoise = Nd4j.zeros(DataType.DOUBLE, PARTIES, p);
            clients.addPrivateNoise(privateNoise, 0, 0.5 * clip);
            INDArray update = clipped(gradient(c.template, before, truth).muli(-LR), clip);
            INDArray left = privateNoise.getRow(k).reshape(1, p).add(fromZero);
            assertTrue(relativeDifference(seen.observed().neg().sub(left), update) < 1e-8,
                    "revealed - colluders' terms = clipped update + private noise + the honest neighbour's term");
            assertEquals(Math.sqrt(0.25 + 9) * clip, seen.noiseStd(), 1e-12);
            assertEquals("1", seen.provenance().details().get("honest_neighbours"));
        }
    }

    @Test
    void mu2ServerAndMachineSeeTheIncrementPlusTheRegeneratedNoise() {
        Clients c = new Clients();
        long p = c.template.numParams();
        Mu2Constants constants = Mu2Constants.given(0.5, 0.0, 100);
        for (ServerTrust trust : ServerTrust.values()) {
            // A small step keeps the iterates inside the ball, so the server's update can be inverted.
            Mu2Config config = Mu2Config.of(trust, LOCAL, 1, 0.01, constants, NoiseSchedule.constant(0.3), 9);
            SeededNoiseStreams streams = new SeededNoiseStreams(9);
            List<INDArray> xs = new ArrayList<>();
            List<INDArray> messages = new ArrayList<>();
            List<INDArray> dhat = new ArrayList<>();
            Mu2Privacy privacy = Mu2Privacy.of(trust, constants.sensitivityBound(), PARTIES, config.noise(), 1e-5);
            try (Mu2Trainer trainer = Mu2Trainer.of(c.template, c.data, config, streams, privacy, PrivacyBudget.unlimited(1e-5))) {
                xs.add(trainer.iterates().x().dup());
                dhat.add(trainer.machines().dhat().dup());
                messages.add(Nd4j.zeros(DataType.DOUBLE, PARTIES, p));
                for (int step = 0; step < 3; step++) {
                    trainer.step();
                    xs.add(trainer.iterates().x().dup());
                    dhat.add(trainer.machines().dhat().dup());
                    messages.add(trainer.lastMessages().dup());
                }
            }
            long t = 3;
            int i = 1;
            GroundTruth truth = row(c.local.get(i), (int) t - 1);
            INDArray q = gradient(c.template, xs.get(2), truth).muli(Mu2Iterates.alpha(t))
                    .subi(gradient(c.template, xs.get(1), truth).muli(Mu2Iterates.alpha(t - 1)));
            INDArray clippedQ = clipped(q, 0.5);
            CaseContext context = new CaseContext(truth, t - 1, Double.NaN, Map.of());
            AttackCase seen;
            INDArray noise;
            if (trust == ServerTrust.UNTRUSTED) {
                seen = new Mu2ServerObserver(config).observe(new Mu2Uplink(c.template, xs.get(2), xs.get(1), t,
                        messages.get(3).getRow(i), messages.get(2).getRow(i), i), context);
                noise = drawn(streams, t, PARTIES, p).getRow(i).sub(drawn(streams, t - 1, PARTIES, p).getRow(i));
            } else {
                INDArray increments = dhat.get(3).sub(dhat.get(2));
                INDArray others = increments.sum(0).reshape(1, p).subi(increments.getRow(i).reshape(1, p));
                seen = new Mu2MachineObserver(config, PARTIES).observe(new Mu2Broadcasts(c.template,
                        new INDArray[] {xs.get(0), xs.get(1), xs.get(2), xs.get(3)}, t, i, others), context);
                noise = drawn(streams, t, 1, p).sub(drawn(streams, t - 1, 1, p)).muli(PARTIES);
            }
            assertTrue(relativeDifference(seen.observed().sub(noise.reshape(1, p)), clippedQ) < 1e-7,
                    trust + ": observation - noise = Clip(q_t)");
            assertEquals((trust == ServerTrust.TRUSTED ? PARTIES : 1) * Math.sqrt(2) * 0.3, seen.noiseStd(), 1e-12);
            GradientForm.Difference form = (GradientForm.Difference) seen.form();
            assertEquals(3.0, form.currentWeight());
            assertEquals(2.0, form.previousWeight());
        }
    }

    @Test
    void nonPrivateMu2MachineReadsTheExactIncrement() {
        Clients c = new Clients();
        long p = c.template.numParams();
        Mu2Config config = new Mu2Config(ServerTrust.TRUSTED, LOCAL, 1, 0.05, ParameterBall.unbounded(),
                Double.POSITIVE_INFINITY, NoiseSchedule.none(), 9);
        List<INDArray> xs = new ArrayList<>();
        List<INDArray> dhat = new ArrayList<>();
        try (Mu2Trainer trainer = Mu2Trainer.of(c.template, c.data, config, new SeededNoiseStreams(9), null, null)) {
            xs.add(trainer.iterates().x().dup());
            dhat.add(trainer.machines().dhat().dup());
            for (int step = 0; step < 2; step++) {
                trainer.step();
                xs.add(trainer.iterates().x().dup());
                dhat.add(trainer.machines().dhat().dup());
            }
        }
        long t = 2;
        int i = 3;
        GroundTruth truth = row(c.local.get(i), 1);
        INDArray q = gradient(c.template, xs.get(1), truth).muli(2).subi(gradient(c.template, xs.get(0), truth));
        INDArray increments = dhat.get(2).sub(dhat.get(1));
        INDArray others = increments.sum(0).reshape(1, p).subi(increments.getRow(i).reshape(1, p));
        AttackCase seen = new Mu2MachineObserver(config, PARTIES).observe(new Mu2Broadcasts(c.template,
                new INDArray[] {xs.get(0), xs.get(0), xs.get(1), xs.get(2)}, t, i, others),
                new CaseContext(truth, 1, Double.NaN, Map.of()));
        assertTrue(relativeDifference(seen.observed(), q) < 1e-7, "the machine reads q_t from the query points");
        assertTrue(seen.scale().knownToAttacker());
        assertEquals("mu2-sgd", seen.provenance().protocol());
    }

    /** The rows of private noise the run drew at round t (all rows at once, as the seeded streams do). */
    private static INDArray drawn(SeededNoiseStreams streams, long t, int rows, long p) {
        if (t < 1) {
            return Nd4j.zeros(DataType.DOUBLE, rows, p);
        }
        INDArray noise = Nd4j.zeros(DataType.DOUBLE, rows, p);
        streams.addPrivateNoise(noise, t, 0.3);
        return noise;
    }
}
