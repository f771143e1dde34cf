package org.dpdl4j.cli.train;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.Mu2Constants;
import org.dpdl4j.protocol.federated.Mu2Setup;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.protocol.federated.ParameterBall;
import org.dpdl4j.protocol.federated.ServerTrust;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** DP-mu^2-FL runs ({@code mu2-untrusted}, {@code mu2-trusted}) from the command-line settings. */
final class Mu2Plan {
    private Mu2Plan() {
    }

    /** Everything resolved for one run, as written to config.json. */
    record Resolved(String algorithm, String trust, int machines, long rounds, int batchSize, String model, long parameters,
                    double lipschitz, double smoothness, double diameter, double sensitivityBound, String certification,
                    String constantsSource, double sigma, double stepSize, double epsilonTarget, double delta, String noise,
                    String start, String split, String pixels) {
    }

    /** The checks that need no data. */
    static void validate(TrainSettings settings) {
        FederatedOptions.Federated f = settings.federated();
        new ParameterBall(f.diameter());
        if ((f.lipschitz() == null) != (f.smoothness() == null)) {
            throw new IllegalArgumentException("give both --lipschitz G and --smoothness L, or neither (then they are derived from the data"
                    + " for softmax or logistic regression)");
        }
        if ((settings.privacy().epsilon() == null) == (settings.privacy().noiseMultiplier() == null)) {
            throw new IllegalArgumentException("--algo " + settings.common().algorithm() + " needs exactly one of --epsilon (the noise is"
                    + " calibrated to it) and --noise-multiplier Z (noise std = Z S)");
        }
    }

    /** The run; {@link #validate} has passed. */
    static FederatedPlan of(TrainSettings settings, FederatedData data, MultiLayerNetwork template) {
        CommonOptions.Common c = settings.common();
        PrivacyOptions.Privacy p = settings.privacy();
        FederatedOptions.Federated f = settings.federated();
        ServerTrust trust = c.algorithm().equals("mu2-untrusted") ? ServerTrust.UNTRUSTED : ServerTrust.TRUSTED;
        int machines = data.machines().size();
        int batch = c.batchSize() != null ? c.batchSize() : 1;
        if (batch < 1) {
            throw new IllegalArgumentException("--batch-size for mu2 is the number of examples per machine and round, at least 1; got " + batch);
        }
        long maxRounds = data.minLocalSize() / batch;
        if (maxRounds < 1) {
            throw new IllegalArgumentException("the smallest machine has " + data.minLocalSize() + " examples, fewer than one batch of "
                    + batch + "; use fewer machines or a smaller --batch-size");
        }
        Long asked = settings.decentralized().rounds();
        long rounds = asked != null ? asked : maxRounds;
        if (rounds < 1 || rounds > maxRounds) {
            throw new IllegalArgumentException("--rounds " + rounds + ": mu2 uses every example once, so with " + data.minLocalSize()
                    + " examples on the smallest machine and batches of " + batch + " it runs between 1 and " + maxRounds + " rounds");
        }
        DenseNetworkSpec spec = PerExampleGradients.of(template).spec();
        Mu2Constants constants = constants(f, spec, data);
        boolean byEpsilon = p.epsilon() != null;
        Mu2Setup setup = byEpsilon
                ? Mu2Setup.calibrated(trust, constants, machines, rounds, batch, spec.numParams(), p.epsilon(), p.delta(), c.seed())
                : Mu2Setup.withNoise(trust, constants, machines, rounds, batch, spec.numParams(),
                p.noiseMultiplier() * constants.sensitivityBound(), p.delta(), c.seed());
        String start = f.init() != null ? f.init() : Mu2Constants.isConvexModel(spec) ? "zero" : "model";
        switch (start) {
            case "zero" -> template.params().assign(0);
            case "model" -> { }
            default -> throw new IllegalArgumentException("unknown --init '" + start + "'; use zero or model");
        }
        NoiseStreams streams = switch (p.noise()) {
            // Untrusted: each machine draws from its own key; trusted: only the server draws (stream 0 of its keys).
            case "secure" -> new SecureNoiseStreams(Graph.of(trust == ServerTrust.UNTRUSTED ? machines : 1));
            case "seeded" -> new SeededNoiseStreams(c.seed());
            default -> throw new IllegalArgumentException("unknown --noise '" + p.noise() + "'; use secure or seeded");
        };
        Mu2Trainer trainer = new Mu2Trainer(template, data.machines(), setup.config(), streams);
        Resolved resolved = new Resolved(c.algorithm(), trust.name().toLowerCase(Locale.ROOT), machines, rounds, batch,
                data.workload().model().cliName(), spec.numParams(), constants.lipschitz(), constants.smoothness(), constants.diameter(),
                constants.sensitivityBound(), constants.certification().name().toLowerCase(Locale.ROOT), constants.source(), setup.sigma(),
                setup.stepSize(), byEpsilon ? p.epsilon() : Double.NaN, p.delta(), p.noise(), start, f.split(), f.pixels());
        Map<String, String> summary = new LinkedHashMap<>();
        summary.put("machines M / rounds T", machines + " / " + rounds);
        summary.put("G / L / D / S", String.format(Locale.ROOT, "%.4g / %.4g / %.4g / %.4g", constants.lipschitz(), constants.smoothness(),
                constants.diameter(), constants.sensitivityBound()));
        summary.put("increment clip", constants.certification() == Mu2Constants.Certification.CERTIFIED ? "none (certified constants)"
                : "safety clip to S (constants not certified)");
        summary.put("sigma / eta", String.format(Locale.ROOT, "%.6g / %.6g", setup.sigma(), setup.stepSize()));
        return new FederatedPlan(trainer, c.algorithm() + ", M = " + machines, setup.privacy()::epsilon,
                r -> setup.privacy().statement(r, constants), resolved, summary);
    }

    private static Mu2Constants constants(FederatedOptions.Federated f, DenseNetworkSpec spec, FederatedData data) {
        if (f.lipschitz() != null) {
            return Mu2Constants.given(f.lipschitz(), f.smoothness(), f.diameter(), Mu2Constants.isConvexModel(spec));
        }
        return Mu2Constants.fromData(spec, data.workload().train().features(), f.diameter());
    }
}
