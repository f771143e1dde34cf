package org.dpdl4j.attacks.observe;

import java.util.List;
import org.dpdl4j.attacks.AttackCase;

/**
 * A protocol step simulated for the attack command: produces the message an adversary would see for the
 * attacked batch and hands it to that adversary's {@link AttackObserver}.
 */
public interface AttackScenario {

    /** The protocol name used on the command line ({@code --algo}). */
    String algorithm();

    /** The adversary positions it supports ({@code --observer}); the first is the default. */
    List<String> observers();

    /**
     * The attack case for the request.
     *
     * @throws IllegalArgumentException for an observer this scenario does not support
     */
    AttackCase build(ScenarioRequest request);
}
