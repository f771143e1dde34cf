package org.dpdl4j.privacy.accounting;

/**
 * A mechanism already known to satisfy {@code rho}-zero-concentrated DP with respect to the
 * accountant's neighbouring relation: {@code (alpha, alpha * rho)}-RDP for every order.
 *
 * @param rho {@code >= 0}; {@code +inf} means unbounded loss
 */
public record ZCdpEvent(double rho) implements DpEvent {
    public ZCdpEvent {
        if (!(rho >= 0)) {
            throw new IllegalArgumentException("ZCdpEvent: rho must be >= 0, got " + rho);
        }
    }
}
