package org.dpdl4j.privacy.accounting;

/**
 * A release without a privacy guarantee (e.g. an unclipped or noiseless statistic). Every accountant
 * accepts it and reports unbounded loss from then on, so it can never be forgotten in a total.
 */
public record NonPrivateEvent() implements DpEvent {
}
