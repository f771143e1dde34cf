package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * An {@code (epsilon, delta)}-DP guarantee produced by an accountant, with its provenance.
 *
 * @param epsilon    the guarantee's epsilon ({@code +inf} when the loss is unbounded)
 * @param delta      the delta it holds for
 * @param order      the RDP order at which the conversion was optimal; {@code NaN} when no order applies
 *                   (zero or unbounded loss, or an accountant that does not use orders)
 * @param conversion the RDP-to-DP conversion asked for (accountants that do not go through Renyi DP ignore it)
 * @param accountant the short name of the accountant that gave the bound ({@link RdpAccountant#NAME},
 *                   {@link ZCdpAccountant#NAME}, {@link ExactGaussianAccountant#NAME}, {@link PldAccountant#NAME})
 */
public record EpsilonBound(double epsilon, double delta, double order, Conversion conversion, String accountant) {
    public EpsilonBound {
        Objects.requireNonNull(conversion, "conversion");
        Objects.requireNonNull(accountant, "accountant");
    }
}
