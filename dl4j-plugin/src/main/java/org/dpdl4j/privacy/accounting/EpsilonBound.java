package org.dpdl4j.privacy.accounting;

/**
 * An {@code (epsilon, delta)}-DP guarantee produced by an accountant, with its provenance.
 *
 * @param epsilon the guarantee's epsilon ({@code +inf} when the loss is unbounded)
 * @param delta the delta it holds for
 * @param order the RDP order at which the conversion was optimal; {@code NaN} when no order applies
 *              (zero or unbounded loss, or an accountant that does not use orders)
 * @param conversion the RDP-to-DP conversion used
 */
public record EpsilonBound(double epsilon, double delta, double order, Conversion conversion) {
}
