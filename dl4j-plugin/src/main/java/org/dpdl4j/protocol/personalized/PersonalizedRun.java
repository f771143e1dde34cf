package org.dpdl4j.protocol.personalized;

import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/**
 * What the personalized runs share: the problem, every agent's model as a row of one [n, p] array, the wake-up
 * schedule drawn before the run (one tick = one agent's update), and a count of the models broadcast to neighbours.
 * Each agent's own model is the output ({@link #partyParameters()}); {@link #parameters()} is their mean, for the
 * shared run interface, as a logistic model without bias (sigmoid + cross-entropy, DL4J's form of the loss).
 */
public abstract class PersonalizedRun extends AbstractTrainingRun {
    protected final PersonalizedProblem problem;
    protected final INDArray models;
    protected final int[] schedule;
    protected final long[] wakes;
    protected long messages;
    private java.util.function.Consumer<ModelBroadcast> tap;

    protected PersonalizedRun(String protocol, RunSettings settings, RunLedger ledger, PersonalizedProblem problem, INDArray start,
                              int[] schedule) {
        this(protocol, settings, ledger, problem, start, schedule, problem.agentCount(), "agent");
    }

    /**
     * @param range what the schedule's entries index, {@code [0, range)}: agents, or for gossip the graph's edges
     * @param what  the name of one entry, for errors
     */
    protected PersonalizedRun(String protocol, RunSettings settings, RunLedger ledger, PersonalizedProblem problem, INDArray start,
                              int[] schedule, int range, String what) {
        super(protocol, settings, ledger);
        this.problem = Objects.requireNonNull(problem, "problem");
        if (start.rank() != 2 || start.size(0) != problem.agentCount() || start.size(1) != problem.dimension()) {
            throw new IllegalArgumentException("the starting models must be [" + problem.agentCount() + ", " + problem.dimension()
                    + "], got " + java.util.Arrays.toString(start.shape()));
        }
        this.models = start.castTo(DataType.DOUBLE).dup('c');
        this.schedule = schedule.clone();
        for (int a : this.schedule) {
            if (a < 0 || a >= range) {
                throw new IllegalArgumentException("the schedule activates " + what + " " + a + " but there are " + range);
            }
        }
        this.wakes = new long[problem.agentCount()];
    }

    /** Every agent's model [n, p] (a copy). */
    public INDArray models() {
        return models.dup();
    }

    public PersonalizedProblem problem() {
        return problem;
    }

    /** How many times each agent has woken so far (a copy). */
    public long[] wakeCounts() {
        return wakes.clone();
    }

    /** Models broadcast so far, one per neighbour reached. */
    public long messages() {
        return messages;
    }

    /** Q of the current models. */
    public double objective() {
        return problem.objective(models);
    }

    /** The wake-up schedule (a copy). */
    public int[] schedule() {
        return schedule.clone();
    }

    /**
     * Counts agent i's wake-up and, when it updates, the broadcast of its (already stored) model to its neighbours,
     * which a tap then sees.
     */
    protected final long wake(int agent, boolean broadcast) {
        long k = wakes[agent]++;
        if (broadcast) {
            messages += problem.neighbourCount(agent);
            if (tap != null) {
                tap.accept(new ModelBroadcast(agent, k, models.getRow(agent).dup().reshape(problem.dimension())));
            }
        }
        return k;
    }

    /**
     * Shows every broadcast from now on to {@code observer} (an eavesdropper on the network); null detaches it. The
     * copies are made only while a tap is attached.
     */
    public void tapBroadcasts(java.util.function.Consumer<ModelBroadcast> observer) {
        this.tap = observer;
    }

    @Override
    public long plannedSteps() {
        return schedule.length;
    }

    @Override
    public String stepUnit() {
        return "tick";
    }

    @Override
    public INDArray parameters() {
        return models.mean(0).reshape(problem.dimension());
    }

    @Override
    public Optional<INDArray> partyParameters() {
        return Optional.of(models.dup());
    }

    @Override
    public MultiLayerNetwork model() {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().dataType(DataType.DOUBLE).list()
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.XENT).nIn(problem.dimension()).nOut(1)
                        .activation(Activation.SIGMOID).hasBias(false).build())
                .build());
        net.init();
        net.setParams(parameters().reshape(1, problem.dimension()));
        return net;
    }

    @Override
    public RunState state() {
        return RunState.builder().array("models", models).array("wakes", Nd4j.createFromArray(wakes))
                .array("schedule", Nd4j.createFromArray(schedule)).number("messages", messages).build();
    }

    @Override
    protected void restoreState(RunState state, long completed) {
        if (!java.util.Arrays.equals(state.array("schedule").toIntVector(), schedule)) {
            throw new IllegalArgumentException("the saved run woke the agents in another order: the schedule is drawn when a run"
                    + " is set up, from secret randomness when the noise is secure, so such a run cannot be resumed; use seeded"
                    + " noise (--noise seeded) for a run that can be resumed");
        }
        models.assign(state.array("models", models.shape()));
        long[] w = state.array("wakes").toLongVector();
        System.arraycopy(w, 0, wakes, 0, wakes.length);
        messages = state.longValue("messages");
    }

    @Override
    protected String divergenceHint() {
        return "the models are not finite: check the features' scale, or lower mu";
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("agents", problem.agentCount());
        r.put("dimension", problem.dimension());
        r.put("ticks", schedule.length);
        r.put("mu", problem.mu());
        return r;
    }
}
