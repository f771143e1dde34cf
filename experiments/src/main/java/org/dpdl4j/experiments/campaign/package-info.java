/**
 * Attack campaigns over protocols, observer positions, epsilons and attacks. {@link AttackCampaign} runs each
 * tapped protocol of {@link CampaignProtocols} on a workload, runs every {@link CampaignAttack} on its cases into
 * {@link AttackRecord}s, and computes information-free baselines (attacks on pure-noise observations, the mean
 * training image), from which {@link CampaignThresholds} derives each target's {@link FailureThreshold}.
 * {@link CampaignResult} aggregates the records into {@link RowSummary} rows and {@link Verdict}s, and
 * {@link CampaignReport} writes {@code report.md}, the CSV files and one PNG grid per attack.
 *
 * <p>The tapped runs and observers are in {@code org.dpdl4j.attacks.observe} (found there for every registered
 * protocol that declares observers), the attacks in
 * {@code org.dpdl4j.attacks.inversion}, and the {@code attack report} command that starts a campaign in
 * {@code org.dpdl4j.cli}.
 */
package org.dpdl4j.experiments.campaign;
