package org.dpdl4j.cuda.check;

import java.io.PrintStream;
import java.util.Locale;
import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.cuda.engine.StackedDenseModels;

/**
 * The rounds of a decentralized run with every node model on the GPU against the same rounds on the engine's plain-Java
 * reference backend (which the Maven tests hold to dpdl4j's CPU engine, round for round): the node models after each of
 * three rounds to 1e-5 relative (L2), and each node's loss sum, for D-SGD, example-level and user-level private rounds
 * with noise (LDP, CDP and Decor differ only in the noise the host supplies and in the graph), on a ring, a random
 * 8-regular graph and the complete graph, with padded batches (copied in, or gathered from the data kept on the device);
 * Decor's noise drawn on the device (Philox), for a whole run and for a Spark block's listed nodes and edges; FedAvg's
 * local steps for some of the clients' rows, started from one global model, and the FedAvg family's release (weighted
 * mean, central DP's clip as weights, local DP's clip and listed clients' noise); and DP-mu^2-FL's machines (both query points of each, the corrected-momentum
 * increments, the safety clip, the running estimates and the mean of the noisy messages). Prints {@code CHECK} lines as {@link CorrectnessCheck}.
 */
final class RoundCheck {
    private static final int ROUNDS = 3;

    private final Backend gpu;
    private final CorrectnessCheck.Reporter report;

    RoundCheck(Backend gpu, PrintStream out) {
        this.gpu = gpu;
        this.report = new CorrectnessCheck.Reporter(out);
    }

    /** How many comparisons failed so far (also after one stopped the run with an error). */
    int failures() {
        return report.failures();
    }

    /** Runs every comparison; returns the number that failed. */
    int run() {
        compare("D-SGD", NodeRounds.Topology.RING, 8, NodeRounds.Privacy.NONE, false, true);
        compare("Decor/LDP, example level", NodeRounds.Topology.RING, 8, NodeRounds.Privacy.EXAMPLE_LEVEL, true, true);
        compare("Decor, example level", NodeRounds.Topology.REGULAR_8, 20, NodeRounds.Privacy.EXAMPLE_LEVEL, true, true);
        compare("CDP, user level", NodeRounds.Topology.COMPLETE, 6, NodeRounds.Privacy.USER_LEVEL, true, false);
        compare("Decor, example level, data kept on the device", NodeRounds.Topology.RING, 8,
                NodeRounds.Privacy.EXAMPLE_LEVEL, true, true, true);
        philoxNoise();
        blockPhiloxNoise();
        localSteps();
        federatedRelease();
        momentumMachines();
        return report.failures();
    }

    /**
     * FedAvg's local steps: 6 participants among 10 clients' rows start from one global model (broadcast) and take two
     * SGD steps on padded batches; their models after each step against the reference.
     */
    private void localSteps() {
        CheckModels.Case c = CheckModels.MLP;
        int clients = 10;
        NodeRounds participants = new NodeRounds(c, 6, 16, true, NodeRounds.Topology.RING, 77);
        float[] global = CheckModels.parameters(c, 78);
        int values = participants.nodes * c.numParams();
        float[][] models = new float[2][values];
        try (StackedDenseModels onGpu = new StackedDenseModels(gpu, c.dense(), clients);
             StackedDenseModels onCpu = new StackedDenseModels(new JavaBackend(), c.dense(), clients)) {
            StackedDenseModels[] sides = {onGpu, onCpu};
            for (StackedDenseModels m : sides) {
                m.useRows(participants.nodes);
                m.broadcast(global);
            }
            for (int s = 0; s < 2; s++) {
                for (int k = 0; k < 2; k++) {
                    participants.loadBatch(sides[k]);
                    sides[k].clippedSums(Float.POSITIVE_INFINITY);
                    sides[k].scaleRows(participants.batchFactors);
                    sides[k].step(false, 0.1f, 1f);
                    sides[k].backend().download(sides[k].models().slice(0, values), models[k], 0);
                }
                report.report("participants' models vs reference", "FedAvg local step " + s + ", 6 of 10 clients from one"
                        + " global model, padded batches of 16", CorrectnessCheck.relative(models[0], CorrectnessCheck.toDouble(models[1])));
            }
        }
    }

    /**
     * The FedAvg family's release and aggregation of 6 participants' updates (their models after one local step minus the
     * global model): FedAvg's weighted mean, central DP-FedAvg's clip as a weight per row (the rows stay raw), and local
     * DP-FedAvg's clip plus each listed client's Philox row, summed; the aggregates, the clipped updates and the noise
     * rows against the reference.
     */
    private void federatedRelease() {
        CheckModels.Case c = CheckModels.MLP;
        int clients = 10;
        int p = c.numParams();
        NodeRounds participants = new NodeRounds(c, 6, 16, true, NodeRounds.Topology.RING, 81);
        int m = participants.nodes;
        float[] global = CheckModels.parameters(c, 82);
        int[] ids = {0, 2, 3, 5, 8, 9};
        float[] weights = {0.1f, 0.25f, 0.15f, 0.2f, 0.05f, 0.25f};
        float[] ones = new float[m];
        java.util.Arrays.fill(ones, 1f);
        String where = "FedAvg family, 6 of 10 clients after a local step, padded batches of 16";
        float[][][] sums = new float[3][2][p];
        float[][] clipped = new float[2][m * p];
        float[][] noise = new float[2][m * p];
        float clip = 0;   // half the largest update's norm on the reference: the clip scales at least that one
        try (StackedDenseModels onGpu = new StackedDenseModels(gpu, c.dense(), clients);
             StackedDenseModels onCpu = new StackedDenseModels(new JavaBackend(), c.dense(), clients);
             var start = new org.bytedeco.javacpp.FloatPointer(global)) {
            StackedDenseModels[] sides = {onGpu, onCpu};
            for (int k : new int[]{1, 0}) {   // the reference first: it sets the clip
                StackedDenseModels s = sides[k];
                s.useRows(m);
                s.broadcast(global);
                participants.loadBatch(s);
                s.clippedSums(Float.POSITIVE_INFINITY);
                s.scaleRows(participants.batchFactors);
                s.step(false, 0.3f, 1f);
                s.updatesFrom(start);
                s.weightedSum(weights, false, sums[0][k]);
                s.clipRows(Float.POSITIVE_INFINITY);
                float[] norms = new float[m];
                s.rowNorms(norms);
                if (k == 1) {
                    for (float norm : norms) {
                        clip = Math.max(clip, norm / 2);
                    }
                }
                float[] factors = new float[m];
                for (int i = 0; i < m; i++) {
                    factors[i] = norms[i] > clip ? clip / norms[i] : 1f;   // RowClipping.factors' min(1, S / norm)
                }
                s.weightedSum(factors, false, sums[1][k]);
                s.clipRows(clip);
                s.backend().download(s.gradients().slice(0, (long) m * p), clipped[k], 0);
                s.drawPhiloxListed(83, 1L << 62, 1L << 32, ids, 0.01);
                s.backend().download(s.noise().slice(0, (long) m * p), noise[k], 0);
                s.weightedSum(ones, true, sums[2][k]);
            }
        }
        report.report("weighted mean vs reference", where + ", FedAvg", CorrectnessCheck.relative(sums[0][0],
                CorrectnessCheck.toDouble(sums[0][1])));
        report.report("clip-weighted sum vs reference", where + ", central DP", CorrectnessCheck.relative(sums[1][0],
                CorrectnessCheck.toDouble(sums[1][1])));
        report.report("clipped updates vs reference", where + ", local DP", CorrectnessCheck.relative(clipped[0],
                CorrectnessCheck.toDouble(clipped[1])));
        report.report("listed clients' Philox rows vs reference", where + ", local DP", CorrectnessCheck.relative(noise[0],
                CorrectnessCheck.toDouble(noise[1])));
        report.report("noisy sum vs reference", where + ", local DP", CorrectnessCheck.relative(sums[2][0],
                CorrectnessCheck.toDouble(sums[2][1])));
    }

    /**
     * A block's Decor noise drawn on the device for listed node and edge ids (a block of a larger run): its edges' Philox
     * rows combined by its incidence rows, plus its nodes' private rows, against the reference.
     */
    private void blockPhiloxNoise() {
        CheckModels.Case c = CheckModels.MLP;
        NodeRounds setting = new NodeRounds(c, 8, 16, true, NodeRounds.Topology.RING, 61);
        int[] nodeIds = new int[setting.nodes];
        int[] edgeIds = new int[setting.edges];
        for (int i = 0; i < nodeIds.length; i++) {
            nodeIds[i] = 40_000 + 3 * i;   // ids above 2^15: both of each id's floats in use
        }
        for (int e = 0; e < edgeIds.length; e++) {
            edgeIds[e] = 70_001 + 5 * e;
        }
        float[][] noise = new float[2][setting.nodes * c.numParams()];
        try (StackedDenseModels onGpu = setting.open(gpu); StackedDenseModels onCpu = setting.open(new JavaBackend())) {
            StackedDenseModels[] sides = {onGpu, onCpu};
            for (int k = 0; k < 2; k++) {
                sides[k].drawPhiloxNoiseListed(62, 1L << 32, 1L << 62, nodeIds, 0.05, 2L << 62, edgeIds, 0.3);
                sides[k].backend().download(sides[k].noise(), noise[k], 0);
            }
        }
        report.report("Philox noise vs reference", "a Spark block's Decor noise, 8 nodes and 8 edges listed by their"
                + " ids in a larger run", CorrectnessCheck.relative(noise[0], CorrectnessCheck.toDouble(noise[1])));
    }

    /**
     * DP-mu^2-FL's machines: 8 machines as 16 rows (x_t, then x_{t-1}), the same 4 samples at both points, three rounds
     * of increments {@code q = grad(x_t) - (t - 1) / t grad(x_{t-1})}, the safety clip, the running estimates and the
     * mean of estimates plus noise, against the reference.
     */
    private void momentumMachines() {
        CheckModels.Case c = CheckModels.MLP;
        int machines = 8;
        int batch = 4;
        int p = c.numParams();
        NodeRounds samples = new NodeRounds(c, machines, batch, false, NodeRounds.Topology.RING, 91);
        float[] features = twice(samples.features);
        float[] labels = twice(samples.labels);
        float[][] sums = new float[2][machines * p];
        float[][] means = new float[2][p];
        float[][] norms = new float[2][machines];
        try (StackedDenseModels onGpu = new StackedDenseModels(gpu, c.dense(), 2 * machines);
             StackedDenseModels onCpu = new StackedDenseModels(new JavaBackend(), c.dense(), 2 * machines)) {
            StackedDenseModels[] sides = {onGpu, onCpu};
            float[] previous = CheckModels.parameters(c, 92);
            for (int t = 1; t <= ROUNDS; t++) {
                float[] point = CheckModels.parameters(c, 92 + t);
                float[] noise = CheckModels.uniform(machines * p, 200 + t);
                float scale = (float) t / batch;
                for (int k = 0; k < 2; k++) {
                    StackedDenseModels m = sides[k];
                    m.useRows(2 * machines);
                    m.broadcast(point, 0, machines);
                    m.broadcast(previous, machines, machines);
                    m.loadBatch(features, labels, null, null, batch);
                    m.clippedSums(Float.POSITIVE_INFINITY);
                    if (t > 1) {
                        m.addRows(machines, 0, machines, -(t - 1f) / t);
                    }
                    m.useRows(machines);
                    m.clipRows(0.5f / scale);
                    m.rowNorms(norms[k]);
                    m.accumulate(scale);
                    m.backend().upload(noise, 0, m.noise().slice(0, (long) machines * p));
                    m.meanOfSums(true, means[k]);
                    m.backend().download(m.sums(machines), sums[k], 0);
                }
                String where = "DP-mu^2-FL, 8 machines at two points, batches of 4, round " + t;
                report.report("increment norms vs reference", where, CorrectnessCheck.relative(norms[0], CorrectnessCheck.toDouble(norms[1])));
                report.report("estimates vs reference", where, CorrectnessCheck.relative(sums[0], CorrectnessCheck.toDouble(sums[1])));
                report.report("mean message vs reference", where, CorrectnessCheck.relative(means[0], CorrectnessCheck.toDouble(means[1])));
                previous = point;
            }
        }
    }

    /**
     * Decor's noise drawn on the device from Philox counters: every edge's pairwise row, combined by the incidence
     * matrix, plus every node's private row, on a random 8-regular graph of 20 nodes, three rounds against the reference.
     */
    private void philoxNoise() {
        CheckModels.Case c = CheckModels.MLP;
        NodeRounds setting = new NodeRounds(c, 20, 16, true, NodeRounds.Topology.REGULAR_8, 57);
        int values = setting.nodes * c.numParams();
        float[][] noise = new float[2][values];
        try (StackedDenseModels onGpu = setting.open(gpu); StackedDenseModels onCpu = setting.open(new JavaBackend())) {
            StackedDenseModels[] sides = {onGpu, onCpu};
            for (int r = 0; r < ROUNDS; r++) {
                for (int k = 0; k < 2; k++) {
                    sides[k].drawPhiloxNoise(58, 1L << 32, (1L << 62) | r, 0.05, (2L << 62) | r, 0.3);
                    sides[k].backend().download(sides[k].noise(), noise[k], 0);
                }
                report.report("Philox noise vs reference", "Decor noise drawn on the device, 20 nodes on a 8-regular graph"
                        + " (80 edges), round " + r, CorrectnessCheck.relative(noise[0], CorrectnessCheck.toDouble(noise[1])));
            }
        }
    }

    /** The values twice in a row: the same samples for both halves of the rows. */
    private static float[] twice(float[] values) {
        float[] out = java.util.Arrays.copyOf(values, 2 * values.length);
        System.arraycopy(values, 0, out, values.length, values.length);
        return out;
    }

    private void compare(String name, NodeRounds.Topology topology, int nodes, NodeRounds.Privacy privacy, boolean noise,
                         boolean padded) {
        compare(name, topology, nodes, privacy, noise, padded, false);
    }

    /** As above; with {@code dataOnDevice} every round's batch is gathered from the examples kept on the device. */
    private void compare(String name, NodeRounds.Topology topology, int nodes, NodeRounds.Privacy privacy, boolean noise,
                         boolean padded, boolean dataOnDevice) {
        CheckModels.Case c = CheckModels.MLP;
        NodeRounds setting = new NodeRounds(c, nodes, 16, padded, topology, 31 + nodes);
        int values = nodes * c.numParams();
        float[][] models = new float[2][values];
        float[][] losses = new float[2][nodes];
        try (StackedDenseModels onGpu = setting.open(gpu); StackedDenseModels onCpu = setting.open(new JavaBackend())) {
            StackedDenseModels[] sides = {onGpu, onCpu};
            float[] rows = dataOnDevice ? setting.holdAsData(onGpu) : null;
            if (dataOnDevice) {
                setting.holdAsData(onCpu);
            }
            for (int r = 0; r < ROUNDS; r++) {
                float[] drawn = CheckModels.uniform(values, 100 + r);
                for (int k = 0; k < 2; k++) {
                    if (dataOnDevice) {
                        sides[k].gatherBatch(rows, padded ? setting.mask : null, setting.batch, false);
                    } else {
                        setting.loadBatch(sides[k]);
                    }
                    if (noise) {
                        sides[k].backend().upload(drawn, 0, sides[k].noise());
                    }
                    NodeRounds.round(sides[k], privacy, setting.batchFactors, noise, 0.05f);
                    sides[k].lossSums(losses[k]);
                    sides[k].backend().download(sides[k].models(), models[k], 0);
                }
                String where = String.format(Locale.ROOT, "%s, %d nodes on a %s, %s, round %d", name, nodes,
                        topology.label(), padded ? "padded batches of 16" : "full batches of 16", r);
                report.report("node models vs reference", where, CorrectnessCheck.relative(models[0], CorrectnessCheck.toDouble(models[1])));
                report.report("loss sums vs reference", where, CorrectnessCheck.relative(losses[0], CorrectnessCheck.toDouble(losses[1])));
            }
        }
    }
}
