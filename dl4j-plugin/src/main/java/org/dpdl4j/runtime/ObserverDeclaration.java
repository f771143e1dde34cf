package org.dpdl4j.runtime;

import java.util.Objects;

/**
 * One adversary position of a protocol, declared by the protocol itself ({@link Protocol#observers()}): who sits
 * where and what it sees. The protocol is the one place that knows its messages, so the attack campaign reads the
 * positions from here rather than keeping its own list; a run that releases what a position sees through
 * {@link ObservableRun} can then be attacked without any code written for it in the attacks module.
 *
 * @param name        the position's name, unique within the protocol, e.g. {@code server} or {@code eavesdropper}
 * @param sees        the messages it observes, in words
 * @param threatModel what it is assumed to know and do
 */
public record ObserverDeclaration(String name, String sees, String threatModel) {

    public ObserverDeclaration {
        Objects.requireNonNull(name, "observer name must not be null");
        Objects.requireNonNull(sees, "what observer '" + name + "' sees must not be null");
        Objects.requireNonNull(threatModel, "the threat model of observer '" + name + "' must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("an observer needs a name, e.g. 'server'");
        }
        if (sees.isBlank() || threatModel.isBlank()) {
            throw new IllegalArgumentException("observer '" + name + "' must say what it sees and what it knows");
        }
    }
}
