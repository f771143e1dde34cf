package org.dpdl4j.protocol.personalized;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The decentralized gossip ADMM of Vanhaesebrouck, Bellet and Tommasi (2017) on the same joint objective (3): the
 * baseline that spec 6.6's coordinate descent is compared with, per iteration and per transmitted vector.
 * <p>
 * Agent i holds its model {@code Theta_i} and a copy {@code C_ij} of every neighbour's model, and minimises
 * {@code f_i = sum_j (W_ij / 4) ||Theta_i - C_ij||^2 + mu D_ii c_i L_i(Theta_i)} (summed over agents, the copies
 * equal to the models, this is Q). Every edge {i, j} carries two secondary variables, {@code Z_ij} for Theta_i and
 * {@code Z_ji} for Theta_j, and four duals: the constraints {@code Theta_i = Z_ij}, {@code C_ji = Z_ij} (j's copy of
 * i), {@code Theta_j = Z_ji} and {@code C_ij = Z_ji}. At each iteration a uniformly random edge wakes up:
 * <ol>
 *   <li>both endpoints take {@code localSteps} gradient steps (step 1/L, L from Gershgorin's bound) on their augmented
 *       Lagrangian {@code f_i + sum_edges <dual, x - Z> + (rho/2) ||x - Z||^2};</li>
 *   <li>they exchange their models and copies (four p-vectors on the edge), set each Z to the mean of its two
 *       constraints' {@code x + dual / rho}, and take a dual ascent step {@code dual += rho (x - Z)}.</li>
 * </ol>
 * The four auxiliary vectors per edge are updated only when that edge wakes, which is why it is slower than the
 * coordinate descent; the paper's experiment uses 10 local steps.
 */
public final class GossipAdmmRun extends PersonalizedRun {
    /** The protocol's name. */
    public static final String NAME = "personalized-admm";

    private final double rho;
    private final int localSteps;
    private final int[][] edges;
    private final int[] offsets;
    private final int[] slotOfEdgeAtFirst;
    private final int[] slotOfEdgeAtSecond;
    // rows offsets[i] .. offsets[i] + |N_i| - 1 belong to agent i, one per neighbour in increasing order
    private final INDArray copies;
    private final INDArray zOwn;
    private final INDArray zCopy;
    private final INDArray dualOwn;
    private final INDArray dualCopy;
    private final INDArray neighbourWeights;

    /**
     * @param start      the models and, for the copies, the neighbours' models at the start [n, p] (the paper: the local
     *                   models)
     * @param schedule   edge indices into {@link #edges(PersonalizedProblem)}, one per iteration
     * @param rho        the ADMM penalty
     * @param localSteps gradient steps on each endpoint's augmented Lagrangian per iteration
     */
    public GossipAdmmRun(RunSettings settings, PersonalizedProblem problem, INDArray start, int[] schedule, double rho, int localSteps) {
        super(NAME, settings, null, problem, start, schedule, edges(problem).length, "edge");
        if (!(rho > 0) || Double.isInfinite(rho)) {
            throw new IllegalArgumentException("the ADMM penalty rho must be positive and finite, got " + rho);
        }
        if (localSteps < 1) {
            throw new IllegalArgumentException("ADMM needs at least one local gradient step per iteration, got " + localSteps);
        }
        this.rho = rho;
        this.localSteps = localSteps;
        this.edges = edges(problem);
        int n = problem.agentCount();
        offsets = new int[n + 1];
        for (int i = 0; i < n; i++) {
            offsets[i + 1] = offsets[i] + problem.neighbourCount(i);
        }
        int rows = offsets[n];
        int p = problem.dimension();
        double[] w = new double[rows];
        copies = Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.DOUBLE, rows, p);
        for (int i = 0; i < n; i++) {
            int[] nb = problem.neighbours(i);
            for (int k = 0; k < nb.length; k++) {
                w[offsets[i] + k] = problem.weight(i, nb[k]);
                copies.putRow(offsets[i] + k, models.getRow(nb[k]));
            }
        }
        neighbourWeights = Nd4j.createFromArray(w).reshape(rows, 1);
        slotOfEdgeAtFirst = new int[edges.length];
        slotOfEdgeAtSecond = new int[edges.length];
        for (int e = 0; e < edges.length; e++) {
            slotOfEdgeAtFirst[e] = slot(edges[e][0], edges[e][1]);
            slotOfEdgeAtSecond[e] = slot(edges[e][1], edges[e][0]);
        }
        // consistent start: every Z equals the model it stands for, every dual 0
        zOwn = Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.DOUBLE, rows, p);
        for (int i = 0; i < n; i++) {
            for (int r = offsets[i]; r < offsets[i + 1]; r++) {
                zOwn.putRow(r, models.getRow(i));
            }
        }
        zCopy = copies.dup();
        dualOwn = Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.DOUBLE, rows, p);
        dualCopy = Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.DOUBLE, rows, p);
    }

    /** The graph's edges {i, j} with i < j and W_ij > 0, in lexicographic order. */
    public static int[][] edges(PersonalizedProblem problem) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < problem.agentCount(); i++) {
            for (int j : problem.neighbours(i)) {
                if (i < j) {
                    out.add(new int[]{i, j});
                }
            }
        }
        return out.toArray(int[][]::new);
    }

    /** A schedule of {@code iterations} uniformly random edges. */
    public static int[] drawSchedule(PersonalizedProblem problem, long iterations, RandomGenerator random) {
        int count = edges(problem).length;
        if (count == 0) {
            throw new IllegalArgumentException("the similarity graph has no edge: gossip ADMM has nothing to do");
        }
        int[] s = new int[Math.toIntExact(iterations)];
        for (int k = 0; k < s.length; k++) {
            s[k] = random.nextInt(count);
        }
        return s;
    }

    private int slot(int agent, int neighbour) {
        int[] nb = problem.neighbours(agent);
        int k = java.util.Arrays.binarySearch(nb, neighbour);
        return offsets[agent] + k;
    }

    private INDArray rows(INDArray a, int agent) {
        return a.get(NDArrayIndex.interval(offsets[agent], offsets[agent + 1]), NDArrayIndex.all());
    }

    @Override
    protected void takeStep(long k) {
        int e = schedule[(int) k];
        int i = edges[e][0];
        int j = edges[e][1];
        localSolve(i);
        localSolve(j);
        int si = slotOfEdgeAtFirst[e];
        int sj = slotOfEdgeAtSecond[e];
        int p = problem.dimension();
        INDArray thetaI = models.getRow(i).reshape(p);
        INDArray thetaJ = models.getRow(j).reshape(p);
        // Z for Theta_i: its two constraints are Theta_i = Z (i's dual) and C_ji = Z (j's copy of i)
        INDArray zi = thetaI.add(dualOwn.getRow(si).reshape(p).div(rho)).addi(copies.getRow(sj).reshape(p))
                .addi(dualCopy.getRow(sj).reshape(p).div(rho)).muli(0.5);
        INDArray zj = thetaJ.add(dualOwn.getRow(sj).reshape(p).div(rho)).addi(copies.getRow(si).reshape(p))
                .addi(dualCopy.getRow(si).reshape(p).div(rho)).muli(0.5);
        zOwn.putRow(si, zi);
        zCopy.putRow(sj, zi);
        zOwn.putRow(sj, zj);
        zCopy.putRow(si, zj);
        dualOwn.getRow(si).addi(thetaI.sub(zi).muli(rho));
        dualCopy.getRow(sj).addi(copies.getRow(sj).reshape(p).sub(zi).muli(rho));
        dualOwn.getRow(sj).addi(thetaJ.sub(zj).muli(rho));
        dualCopy.getRow(si).addi(copies.getRow(si).reshape(p).sub(zj).muli(rho));
        messages += 4;
        wake(i, false);
        wake(j, false);
        measuredNoLoss();
    }

    /** {@code localSteps} gradient steps of agent i on its augmented Lagrangian, over its model and its copies. */
    private void localSolve(int i) {
        int p = problem.dimension();
        int degree = problem.neighbourCount(i);
        double outer = problem.mu() * problem.degree(i) * problem.confidence(i);
        double step = 1 / (problem.degree(i) + outer * problem.localSmoothness(i) + rho * degree);
        INDArray theta = models.getRow(i).reshape(p).dup();
        INDArray c = rows(copies, i);
        INDArray w = rows(neighbourWeights, i);
        INDArray zo = rows(zOwn, i);
        INDArray zc = rows(zCopy, i);
        INDArray lo = rows(dualOwn, i);
        INDArray lc = rows(dualCopy, i);
        INDArray cNew = c.dup();
        for (int s = 0; s < localSteps; s++) {
            // d/dTheta: sum_j (W_ij / 2)(Theta - C_ij) + outer grad L_i + sum_j (dual + rho (Theta - Z_ij))
            INDArray gTheta = theta.mul(0.5 * problem.degree(i) + rho * degree)
                    .subi(w.transpose().mmul(cNew).reshape(p).muli(0.5))
                    .addi(problem.localGradient(i, theta).muli(outer))
                    .addi(lo.sum(0).reshape(p)).subi(zo.sum(0).reshape(p).muli(rho));
            // d/dC_ij: (W_ij / 2)(C_ij - Theta) + dual + rho (C_ij - Z)
            INDArray gC = cNew.subRowVector(theta.reshape(1, p)).muliColumnVector(w.mul(0.5))
                    .addi(lc).addi(cNew.sub(zc).muli(rho));
            theta.subi(gTheta.muli(step));
            cNew.subi(gC.muli(step));
        }
        models.putRow(i, theta.reshape(1, p));
        c.assign(cNew);
    }

    @Override
    public String stepUnit() {
        return "iteration";
    }

    /** The ADMM penalty. */
    public double rho() {
        return rho;
    }

    @Override
    public RunState state() {
        return super.state().toBuilder().array("copies", copies).array("zOwn", zOwn).array("zCopy", zCopy)
                .array("dualOwn", dualOwn).array("dualCopy", dualCopy).build();
    }

    @Override
    protected void restoreState(RunState state, long completed) {
        super.restoreState(state, completed);
        copies.assign(state.array("copies", copies.shape()));
        zOwn.assign(state.array("zOwn", zOwn.shape()));
        zCopy.assign(state.array("zCopy", zCopy.shape()));
        dualOwn.assign(state.array("dualOwn", dualOwn.shape()));
        dualCopy.assign(state.array("dualCopy", dualCopy.shape()));
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = super.resolved();
        r.put("rho", rho);
        r.put("localSteps", localSteps);
        return r;
    }
}
