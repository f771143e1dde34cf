package org.dpdl4j.attacks.network;

/**
 * A network (or a layer of it) that gradient matching cannot express: the message names the layer, what is
 * unsupported and what to use instead.
 */
public final class UnsupportedModelException extends IllegalArgumentException {
    public UnsupportedModelException(String message) {
        super(message);
    }
}
