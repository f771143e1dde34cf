package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.ObservableRun;
import org.dpdl4j.runtime.ObservedRelease;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The tapped run of a registered protocol that nobody wrote an attack adapter for: the protocol builds its run
 * from settings made of the workload ({@link #settings}), the run hands each release its declared observers see to
 * them ({@link ObservableRun}), and every release of one target alone at or after the workload's attack round
 * becomes a case of each observer ({@link DeclaredObserver}). Unlike the adapters, it cannot place the targets:
 * it steps until the protocol's own sampling has released each of them alone, and fails naming those it never
 * did within the run's planned steps (at most {@value #PASSES_BOUND} passes over the training set past the attack
 * round).
 */
public final class DeclaredObserverRun implements ProtocolScenario {
    /** Passes over the training set, past the attack round, after which a target still unreleased is an error. */
    static final long PASSES_BOUND = 10;

    private final Protocol protocol;

    /** @param protocol a registered protocol that declares at least one observer */
    public DeclaredObserverRun(Protocol protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol must not be null");
        if (protocol.observers().isEmpty()) {
            throw new IllegalArgumentException("protocol " + protocol.name() + " declares no observers to attack it"
                    + " through; declare them in its observers()");
        }
    }

    @Override
    public String algorithm() {
        return protocol.name();
    }

    @Override
    public List<String> observers() {
        return protocol.observers().stream().map(ObserverDeclaration::name).toList();
    }

    @Override
    public boolean isPrivate() {
        return protocol.isPrivate();
    }

    /**
     * The settings of the protocol's run on a workload, each given only when the protocol reads it: the seed, the
     * learning rate and clip norm of the campaign, seeded noise (so a campaign is reproducible), epsilon, delta and
     * the accountant, batches of one example (so that a release can hold a target alone), and a plan of the attack
     * round plus one pass over the training set ({@code --rounds}, or {@code --epochs} as a fraction of passes).
     *
     * @throws IllegalArgumentException for a private protocol that does not read {@code --epsilon}, or that does not
     *                                  read {@code --accountant} when the campaign asks for another than the default
     */
    public RunSettings settings(RunWorkload workload, double epsilon) {
        CampaignSettings s = workload.settings();
        long n = workload.train().size();
        if (protocol.isPrivate() && !reads(RunOptions.EPSILON)) {
            throw new IllegalArgumentException(protocol.name() + " does not read " + RunOptions.EPSILON.flag()
                    + ", so the campaign cannot calibrate it to epsilon " + epsilon + "; let the protocol read it, or"
                    + " supply a tapped run for it");
        }
        if (protocol.isPrivate() && !reads(RunOptions.ACCOUNTANT) && !s.accountant().equals(AccountantFactory.TIGHTEST)) {
            throw new IllegalArgumentException(protocol.name() + " does not read " + RunOptions.ACCOUNTANT.flag()
                    + ", so the campaign cannot calibrate it with the " + s.accountant() + " accountant; let the protocol"
                    + " read it, supply a tapped run for it, or leave the accountant at " + AccountantFactory.TIGHTEST);
        }
        RunSettings out = RunSettings.empty();
        out = withIfRead(out, RunOptions.SEED, s.seed());
        out = withIfRead(out, RunOptions.LEARNING_RATE, s.learningRate());
        out = withIfRead(out, RunOptions.CLIP, s.clipNorm());
        out = withIfRead(out, RunOptions.NOISE, NoiseKind.SEEDED);
        if (protocol.isPrivate()) {
            out = out.with(RunOptions.EPSILON, epsilon);
        }
        out = withIfRead(out, RunOptions.DELTA, s.delta());
        out = withIfRead(out, RunOptions.ACCOUNTANT, s.accountant());
        out = withIfRead(out, RunOptions.BATCH_SIZE, 1L);
        out = withIfRead(out, RunOptions.ROUNDS, s.attackRound() + n);
        out = withIfRead(out, RunOptions.EPOCHS, (double) (s.attackRound() + n) / n);
        return out;
    }

    @Override
    public ScenarioRun run(RunWorkload workload, double epsilon) {
        Epsilons.require(this, epsilon);
        RunSettings settings = settings(workload, epsilon);
        RunInputs inputs = WorkloadInputs.of(workload);
        try (TrainingRun run = protocol.create(settings, inputs)) {
            if (!(run instanceof ObservableRun observable)) {
                throw new IllegalArgumentException(protocol.name() + " declares the observers " + observers() + " but its"
                        + " run (" + run.getClass().getName() + ") does not hand out their releases; implement"
                        + " ObservableRun in it, or supply a tapped run for it through a ProtocolScenarioProvider");
            }
            Taps taps = new Taps(workload, run.model());
            for (ObserverDeclaration d : protocol.observers()) {
                observable.observe(d.name(), release -> taps.offer(d, release));
            }
            long bound = workload.settings().attackRound() + PASSES_BOUND * workload.train().size();
            while (!taps.done()) {
                if (run.isFinished() || run.completedSteps() >= bound) {
                    throw new IllegalStateException(protocol.name() + " did not release the targets " + taps.missing()
                            + " alone (one example) to every declared observer at or after round "
                            + workload.settings().attackRound() + " within " + run.completedSteps() + " "
                            + run.stepUnit() + "s" + (run.isFinished() ? " (its planned steps)" : " (the bound)")
                            + "; a run attacked through its declared observers must release each example alone, e.g."
                            + " at batch size 1");
                }
                run.step();
            }
            Map<String, String> calibration = new LinkedHashMap<>();
            calibration.put("model", String.format(Locale.ROOT, "%s as registered, attacked through its declared"
                    + " observers at the releases of one target alone; %d %ss", protocol.name(), run.completedSteps(),
                    run.stepUnit()));
            calibration.put("settings", settings.texts().toString());
            if (!run.resolved().isEmpty()) {
                calibration.put("resolved", run.resolved().toString());
            }
            return new ScenarioRun(algorithm(), epsilon, taps.cases(), calibration);
        }
    }

    private boolean reads(RunOption<?> option) {
        return protocol.options().contains(option);
    }

    private <T> RunSettings withIfRead(RunSettings settings, RunOption<T> option, T value) {
        return reads(option) ? settings.with(option, value) : settings;
    }

    /** The first release of each target alone to each observer, as cases in the order of targets then observers. */
    private final class Taps {
        private final RunWorkload workload;
        private final MultiLayerNetwork template;
        private final int[] targets;
        private final Map<String, DeclaredObserver> observers = new LinkedHashMap<>();
        private final Map<String, AttackCase> cases = new LinkedHashMap<>();

        Taps(RunWorkload workload, MultiLayerNetwork template) {
            this.workload = workload;
            this.template = template;
            this.targets = workload.targets();
            for (ObserverDeclaration d : protocol.observers()) {
                observers.put(d.name(), new DeclaredObserver(protocol.name(), d, template));
            }
        }

        void offer(ObserverDeclaration observer, ObservedRelease release) {
            int[] rows = release.rows();
            if (rows.length != 1 || release.step() < workload.settings().attackRound()) {
                return;
            }
            int target = rows[0];
            String key = key(target, observer.name());
            if (Arrays.stream(targets).noneMatch(t -> t == target) || cases.containsKey(key)) {
                return;
            }
            double accuracy = TestAccuracy.of(template, release.parameters(), workload.test());
            Map<String, String> details = Map.of("target_index", Integer.toString(target), "release",
                    release.step() + ": rows = {training example " + target + "}");
            cases.put(key, observers.get(observer.name()).observe(release,
                    new CaseContext(workload.truth(target), release.step(), accuracy, details)));
        }

        boolean done() {
            return cases.size() == targets.length * observers.size();
        }

        List<Integer> missing() {
            Set<Integer> out = new LinkedHashSet<>();
            for (int t : targets) {
                for (String o : observers.keySet()) {
                    if (!cases.containsKey(key(t, o))) {
                        out.add(t);
                    }
                }
            }
            return List.copyOf(out);
        }

        List<AttackCase> cases() {
            List<AttackCase> out = new ArrayList<>();
            for (int t : targets) {
                for (String o : observers.keySet()) {
                    out.add(cases.get(key(t, o)));
                }
            }
            return out;
        }

        private String key(int target, String observer) {
            return target + "/" + observer;
        }
    }
}
