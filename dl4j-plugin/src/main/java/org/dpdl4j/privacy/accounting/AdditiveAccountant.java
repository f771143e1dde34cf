package org.dpdl4j.privacy.accounting;

/**
 * An accountant whose whole state is a cost vector that composition adds to: the RDP curve over a fixed set of
 * orders ({@link RdpAccountant}), the total rho ({@link ZCdpAccountant}). A ledger of {@code (event, count)} entries
 * then costs {@code sum count * cost(event)}, so a training loop can price one step once and report epsilon
 * after every step in time proportional to the vector, and a ledger of many steps of a few distinct events is
 * priced exactly as one composition of each event with its count.
 */
public interface AdditiveAccountant extends PrivacyAccountant {

    /**
     * The cost of one occurrence of the event under this accountant's relation (a fresh array).
     *
     * @throws UnsupportedEventException if the event (or a nested event) cannot be analysed
     */
    double[] cost(DpEvent event);

    /**
     * The guarantee of a ledger whose summed cost is {@code totalCost}, independent of this accountant's own
     * ledger.
     *
     * @param totalCost a sum of {@link #cost} vectors with non-negative multiplicities
     */
    EpsilonBound epsilonBound(double[] totalCost, double delta, Conversion conversion);
}
