/**
 * The privacy ledger every run owns. {@link RunLedger} records each mechanism application as a step makes it (a
 * {@link Charge} becomes a {@link LedgerEntry}, aggregated in a {@link PrivacyLedger}), checks it against the run's
 * {@link PrivacyBudget} before the step happens ({@link PrivacyBudgetExceededException}), and reports the epsilon
 * spent. {@link LedgerAccounting} prices a ledger or a planned number of steps (disjoint parties compose in
 * parallel; the worst party is reported), {@link LedgerJson} saves and reads a ledger, and {@link LedgerStatement}
 * puts it into words.
 *
 * <p>Accountants, events and conversions live in {@code org.dpdl4j.privacy.accounting} and are reached through an
 * {@code AccountantFactory}; this package only records events and asks them for prices. The rest of a saved run
 * (model, settings, protocol state) is written by {@code org.dpdl4j.runtime.RunCheckpoint}.
 */
package org.dpdl4j.privacy.ledger;
