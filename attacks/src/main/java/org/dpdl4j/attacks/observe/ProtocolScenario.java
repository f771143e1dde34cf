package org.dpdl4j.attacks.observe;

import java.util.List;

/**
 * A real training run of a protocol, tapped at the attacked releases: every target image is placed where the
 * attacked party samples (or holds) exactly one example in an attacked round, and each observer of the protocol
 * turns what it sees there into an {@link org.dpdl4j.attacks.AttackCase}. Private protocols calibrate their noise
 * to the requested epsilon exactly as their trainers do.
 */
public interface ProtocolScenario {

    /** Protocol name, e.g. {@code decor}. */
    String algorithm();

    /** The observers whose cases a run returns, in order. */
    List<String> observers();

    /** Whether the protocol adds noise calibrated to an epsilon (otherwise it runs only without privacy). */
    boolean isPrivate();

    /**
     * Trains, taps the attacked releases and returns their cases.
     *
     * @param epsilon the target epsilon at the workload's delta; {@code +Infinity} for a non-private protocol
     * @throws IllegalArgumentException for an epsilon the protocol does not take (finite for a non-private one,
     *                                  infinite for a private one) or a calibration that cannot meet it
     */
    ScenarioRun run(RunWorkload workload, double epsilon);
}
