/**
 * Privacy accounting: immutable {@link org.dpdl4j.privacy.accounting.DpEvent}s recorded in the ledger
 * of a {@link org.dpdl4j.privacy.accounting.PrivacyAccountant}, conversions to {@code (epsilon, delta)}-DP,
 * noise calibration, and printable privacy statements.
 *
 * <h2>Conventions</h2>
 * <ul>
 *   <li><b>Noise multiplier.</b> Every noise-adding event has a multiplier {@code z}: each protected unit
 *   contributes a vector of norm at most {@code C} (L2 for Gaussian noise, L1 for Laplace noise), the
 *   contributions are summed, and noise of scale {@code z * C} is added. {@code z = +inf} is no loss,
 *   {@code z = 0} unbounded loss.</li>
 *   <li><b>Neighbouring relation.</b> Each accountant is built for one
 *   {@link org.dpdl4j.privacy.accounting.NeighbouringRelation}. Under {@code ADD_OR_REMOVE_ONE} one unit's
 *   contribution moves the sum by at most {@code C}; under {@code REPLACE_ONE} by at most {@code 2C}. So a
 *   Gaussian step costs {@code alpha/(2z^2)} (add/remove) or {@code 2alpha/z^2} (replace-one) in RDP.
 *   Poisson sampling is analysed under add/remove, fixed-size sampling without replacement under
 *   replace-one; the other pairings are refused.</li>
 *   <li><b>Refusal, not guessing.</b> An accountant that cannot analyse an event soundly throws
 *   {@link org.dpdl4j.privacy.accounting.UnsupportedEventException} and leaves its ledger unchanged.
 *   {@link org.dpdl4j.privacy.accounting.NonPrivateEvent} is accepted everywhere and makes the loss infinite.</li>
 *   <li><b>Conversion.</b> {@link org.dpdl4j.privacy.accounting.Conversion#STANDARD}
 *   ({@code min_alpha eps_R(alpha) + ln(1/delta)/(alpha-1)}) is the default everywhere;
 *   {@link org.dpdl4j.privacy.accounting.Conversion#IMPROVED} is available on request and is never larger.</li>
 *   <li><b>Orders.</b> The RDP accountant's default orders are the integers 2..256 plus real orders in
 *   (1, 32) where its formulas are exact (or, for sampling without replacement, a documented valid
 *   interpolation).</li>
 *   <li><b>Calibration</b> always returns the conservative end of its bracket: the achieved epsilon is at
 *   most the target.</li>
 *   <li><b>Precision.</b> Everything is computed in {@code double}, in log space where sums of
 *   exponentials would overflow.</li>
 * </ul>
 */
package org.dpdl4j.privacy.accounting;
