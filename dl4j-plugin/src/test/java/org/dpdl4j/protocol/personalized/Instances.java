package org.dpdl4j.protocol.personalized;

import java.util.List;
import org.dpdl4j.data.synthetic.BelletAgent;
import org.dpdl4j.data.synthetic.BelletCollaborativeClassification;
import org.dpdl4j.data.synthetic.BelletConfig;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.data.synthetic.FeatureNorm;

/** Small instances of the collaborative classification task for the personalized-learning tests. */
final class Instances {
    private Instances() {
    }

    /** n agents in R^p, 10..40 examples each, a wide similarity kernel (gamma 1) so that no agent is isolated. */
    static BelletProblem generated(int n, int p, FeatureNorm norm, long seed) {
        return generated(n, p, 1.0, norm, seed);
    }

    /** The same with the similarity bandwidth gamma (the paper: 0.1). */
    static BelletProblem generated(int n, int p, double gamma, FeatureNorm norm, long seed) {
        return BelletCollaborativeClassification.generate(new BelletConfig(n, p, gamma, 1e-3, 10, 40, 50, 0.05, norm), seed);
    }

    static List<AgentData> train(BelletProblem b) {
        return b.agents().stream().map(a -> AgentData.ofClasses(a.train().features(), a.train().labels())).toList();
    }

    static List<AgentData> test(BelletProblem b) {
        return b.agents().stream().map(BelletAgent::test).map(t -> AgentData.ofClasses(t.features(), t.labels())).toList();
    }

    static PersonalizedProblem problem(BelletProblem b, double mu) {
        List<AgentData> agents = train(b);
        return new PersonalizedProblem(agents, b.similarity(), PersonalizedProblem.inverseSizes(agents), mu);
    }
}
