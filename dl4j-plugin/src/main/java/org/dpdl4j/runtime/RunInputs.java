package org.dpdl4j.runtime;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a protocol trains besides its settings: the initial model, the training examples, how a split scheme is
 * applied to them, and for tasks that define their own parties (Decor's synthetic users) those parties' data.
 *
 * @param model    makes the network: the starting parameters and the layout of every party's model
 * @param train    the training examples
 * @param splits   the split of a scheme's name ({@code --partition}), e.g. {@code dirichlet:10}; it throws an
 *                 {@link IllegalArgumentException} naming the accepted schemes for an unknown one
 * @param users    null, or the parties of a task that defines them: each user's whole local problem, minimised as a
 *                 sum over its examples with full local gradients (then no split applies)
 * @param userGraph null, or for a task whose users are related (personalized learning) the symmetric similarity
 *                 weights {@code W[i][j] >= 0} between its users, zero on the diagonal
 */
public record RunInputs(ModelBuilder model, TrainingSet train,
                        Function<String, PartySplit> splits, List<NodeData> users, double[][] userGraph) {
    public RunInputs {
        Objects.requireNonNull(model, "model builder");
        Objects.requireNonNull(train, "training set");
        Objects.requireNonNull(splits, "split schemes");
        users = users == null ? null : List.copyOf(users);
        if (userGraph != null && (users == null || userGraph.length != users.size())) {
            throw new IllegalArgumentException("a similarity graph needs one row per user: " + userGraph.length + " rows for "
                    + (users == null ? "no" : users.size()) + " users");
        }
    }

    /** Inputs of a task whose users are not related by a graph. */
    public RunInputs(ModelBuilder model, TrainingSet train, Function<String, PartySplit> splits, List<NodeData> users) {
        this(model, train, splits, users, null);
    }

    /** Inputs whose parties come from splitting {@code train}. */
    public static RunInputs of(ModelBuilder model, TrainingSet train, Function<String, PartySplit> splits) {
        return new RunInputs(model, train, splits, null);
    }

    /** Whether the task defines its own parties. */
    public boolean hasUsers() {
        return users != null;
    }

    /** Whether the task's users come with a similarity graph. */
    public boolean hasUserGraph() {
        return userGraph != null;
    }
}
