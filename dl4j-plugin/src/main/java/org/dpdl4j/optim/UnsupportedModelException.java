package org.dpdl4j.optim;

/** A model that per-example clipping cannot handle correctly; the message lists every problem found. */
public final class UnsupportedModelException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnsupportedModelException(String message) {
        super(message);
    }
}
