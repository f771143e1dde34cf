package org.dpdl4j.protocol.recal;

import java.util.Locale;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.privacy.ledger.LedgerStatement;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * What the synchronous gossip baselines (PG-EXTRA, NIDS) share: the agents' models as the rows of one stacked
 * [n, q c] matrix, the mixing matrix W, full local gradients with per-record clipping, and the publication of a
 * vector by every agent to each of its neighbours in the same iteration, with Gaussian noise of std
 * {@code sigma_i zeta^((m-1)/2)} at the m-th publication (the same schedule and accountant as DP-RECAL, with every
 * agent publishing every iteration). A neighbour mixes what it received; an agent uses its own exact vector.
 *
 * <p>A private run releases the mean of what the agents last published ({@link #output()}; the model before any
 * publication): the exact iterates are internal state that no observer sees, so releasing them would leave the
 * guarantee. {@link #relativeError} still measures the iterates, as the papers do.
 */
abstract class GossipRun extends CompositeRun {
    protected final MixingMatrix mixing;
    protected final double alpha;
    protected final double clip;
    protected final DecayingNoisePrivacy privacy;
    private final NoiseStreams streams;
    private final String mechanism;
    private final StepOrigin origin;
    private final INDArray w;
    private final INDArray ownWeight;
    private final long edgesBothWays;
    protected long publications;
    /** What every agent last published (with its noise), as rows; null before the first publication. */
    private INDArray lastPublished;

    GossipRun(String protocol, RunSettings settings, RunLedger ledger, CompositeProblem problem, LinearModel model, long iterations,
              MixingMatrix mixing, double alpha, double clip, DecayingNoisePrivacy privacy, NoiseStreams streams,
              StepOrigin origin) {
        super(protocol, settings, ledger, problem, model, iterations);
        if ((privacy == null) != (ledger == null)) {
            throw new IllegalArgumentException("a private baseline needs its accounting and a ledger, a non-private one neither");
        }
        if (mixing.size() != problem.agentCount()) {
            throw new IllegalArgumentException("the mixing matrix is for " + mixing.size() + " agents but the problem has "
                    + problem.agentCount());
        }
        requireStep(alpha);
        this.mixing = mixing;
        this.alpha = alpha;
        this.clip = clip;
        this.privacy = privacy;
        this.streams = streams;
        this.mechanism = privacy == null ? null : privacy.describe();
        this.origin = java.util.Objects.requireNonNull(origin, "origin");
        this.w = Nd4j.createFromArray(mixing.toArray()).castTo(DataType.DOUBLE);
        double[] own = new double[mixing.size()];
        for (int i = 0; i < own.length; i++) {
            own[i] = mixing.get(i, i);
        }
        this.ownWeight = Nd4j.createFromArray(own).reshape(own.length, 1);
        this.edgesBothWays = 2L * mixing.graph().edgeCount();
    }

    /** A zero [n, q c] matrix. */
    protected final INDArray stacked() {
        return Nd4j.zeros(DataType.DOUBLE, problem.agentCount(), (long) problem.rows() * problem.columns());
    }

    /** Every agent's (clipped) local gradient at its row of {@code x}, as rows; measures the mean loss. */
    protected final INDArray gradients(INDArray x) {
        int q = problem.rows();
        int c = problem.columns();
        INDArray out = stacked();
        INDArray g = problem.zeros();
        double loss = 0;
        for (int i = 0; i < problem.agentCount(); i++) {
            loss += problem.agent(i).gradient(x.getRow(i).dup().reshape(q, c), clip, g);
            out.putRow(i, g.reshape((long) q * c));
        }
        measuredLoss(loss / problem.records());
        return out;
    }

    /**
     * The prox of each agent's share {@code g/n} of the penalty (the agents jointly minimise {@code sum_i (f_i + g/n)})
     * applied to every agent's row, in place.
     */
    protected final INDArray proxRows(INDArray z, double step) {
        INDArray models = z.reshape(problem.agentCount(), problem.rows(), problem.columns());
        problem.penalty().proxElementwise(models.get(NDArrayIndex.all(), NDArrayIndex.interval(0, problem.penalizedRows()),
                NDArrayIndex.all()), step / problem.agentCount());
        return z;
    }

    /**
     * Every agent publishes its row of {@code v} to its neighbours (with noise when private, charged first); returns
     * the mixed rows {@code sum_j W_ij v_j}, with each agent's own term exact and its neighbours' as received.
     */
    protected final INDArray publishAndMix(INDArray v, long iteration) {
        if (privacy == null) {
            publications++;
            messages += edgesBothWays;
            return w.mmul(v);
        }
        long m = publications + 1;
        spend(privacy.publicationOfAll(m));
        publications = m;
        INDArray noise = stacked();
        for (int i = 0; i < problem.agentCount(); i++) {
            streams.privateNoise(i, iteration).addGaussian(noise.getRow(i), privacy.std(i, m));
        }
        messages += edgesBothWays;
        INDArray published = v.add(noise);
        lastPublished = published;
        return w.mmul(published).subi(noise.muliColumnVector(ownWeight));
    }

    /** Every agent's publications once all planned iterations are done. */
    protected abstract long plannedPublications();

    /** Every publication charges every agent, with the noise of its rank. */
    @Override
    public java.util.Optional<org.dpdl4j.privacy.ledger.PrivacyLedger> plannedLedger() {
        return privacy == null ? java.util.Optional.empty()
                : java.util.Optional.of(privacy.plannedSynchronous(plannedPublications(), ledger().orElseThrow().secureNoise()));
    }

    /** @throws IllegalArgumentException unless the step size is positive and finite */
    static void requireStep(double alpha) {
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("the step size must be positive and finite, got " + alpha);
        }
    }

    /**
     * The released model: the mean of the agents' exact models without privacy; with privacy the mean of what they last
     * published (a post-processing of the releases the ledger prices), or the initial model before any publication.
     */
    @Override
    public INDArray output() {
        if (privacy == null) {
            return iterate();
        }
        return lastPublished == null ? problem.zeros() : lastPublished.mean(0).reshape(problem.rows(), problem.columns());
    }

    /** The mean of the agents' exact models. */
    @Override
    protected INDArray iterate() {
        return models().mean(0).reshape(problem.rows(), problem.columns());
    }

    /** The agents' current models as rows [n, q c] (not a copy). */
    protected abstract INDArray models();

    @Override
    public INDArray localModels() {
        return models().dup().reshape(problem.agentCount(), problem.rows(), problem.columns());
    }

    /** Publications of every agent so far (all agents publish together). */
    public long publications() {
        return publications;
    }

    @Override
    public long lci() {
        return publications;
    }

    /** The step size alpha. */
    public double alpha() {
        return alpha;
    }

    @Override
    protected void protocolValues(java.util.Map<String, Object> r) {
        r.put("alpha", alpha);
    }

    @Override
    public DecayingNoisePrivacy privacy() {
        return privacy;
    }

    @Override
    public double clip() {
        return clip;
    }

    @Override
    public String privacyStatement() {
        if (privacy == null) {
            return "";
        }
        return LedgerStatement.resumedPreamble(ledger().orElseThrow()) + String.format(Locale.ROOT,
                "Privacy statement: %s, record-level DP against an eavesdropper on every channel"
                        + " (replace-one adjacency; each agent's internal state is conditioned on)%n  per publication: %s%n"
                        + "  every record gradient clipped to G_rec = %s; sensitivity 2 alpha G_rec%n  %d agents, each published"
                        + " %d times (every agent publishes every iteration)%n  Released model: the mean of what the"
                        + " agents last published%s; their exact iterates are internal state, never released%n%s%n",
                protocol(), mechanism, clip, problem.agentCount(), publications,
                publications == 0 ? " (nothing yet: the initial model)" : "", origin.statementLine())
                + LedgerStatement.text(ledger().orElseThrow());
    }

    /** The base state plus the protocol's arrays. */
    protected final RunState.Builder baseState() {
        RunState.Builder b = RunState.builder().number("messages", messages).number("publications", publications);
        return lastPublished == null ? b : b.array("published", lastPublished);
    }

    /**
     * @throws IllegalStateException for a private run's checkpoint that has publications but not what they were (saved
     *                               before the released model was their mean): resuming it would release the exact iterates
     */
    protected final void restoreBase(RunState state) {
        messages = state.longValue("messages");
        publications = state.longValue("publications");
        lastPublished = state.arrays().containsKey("published") ? state.array("published", stacked().shape()) : null;
        if (privacy != null && publications > 0 && lastPublished == null) {
            throw new IllegalStateException("this " + protocol() + " checkpoint was saved before a private run released the mean"
                    + " of its publications, and it does not hold them: its model cannot be released without leaving the"
                    + " guarantee. Start the run again");
        }
    }
}
