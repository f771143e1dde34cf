package org.dpdl4j.protocol.decentralized;

/** Receives what travels in each round of a decentralized run (see {@link RoundTap}). */
@FunctionalInterface
public interface RoundObserver {
    void onRound(RoundTap tap);
}
