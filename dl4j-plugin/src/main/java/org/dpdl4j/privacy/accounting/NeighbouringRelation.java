package org.dpdl4j.privacy.accounting;

/**
 * Which pairs of datasets a guarantee treats as neighbours. Every accountant is built for one
 * relation and refuses events whose analysis needs the other.
 */
public enum NeighbouringRelation {
    /** One element (example, record or user) is added or removed. Poisson sampling lives here. */
    ADD_OR_REMOVE_ONE,
    /** One element is replaced by another. A clipped contribution then moves the sum by 2C. */
    REPLACE_ONE
}
