/**
 * How adversaries see training. An {@link AttackObserver} sits at one position of one protocol (a server, an
 * eavesdropper, a curious neighbour, colluding clients, another machine, an observer of the global or average
 * model), taps a message record holding only what that position sees ({@link DpSgdRelease}, {@link GossipRound},
 * {@link ClientMessage}, {@link Mu2Uplink}, ...), turns it into an {@code AttackCase} and describes itself with an
 * {@link AttackSurface}. A {@link ProtocolScenario} ({@link CentralDpSgdRun}, {@link DecentralizedRun}, {@link FedAvgRun},
 * {@link Mu2Run}) runs the library's real trainer on a {@link RunWorkload}, places the target images where they
 * will be sampled and returns a {@link ScenarioRun} of cases; an {@link AttackScenario} (listed in
 * {@link AttackScenarios}, checked against the protocol registry) only simulates one release for the {@code attack}
 * command.
 *
 * <p>The tapped runs are found, not listed: {@link ProtocolScenarioProvider}s (the library's is
 * {@link LibraryScenarios}) supply runs written for particular protocols, and {@link ProtocolScenarios} gives every
 * registered protocol that declares observers its run, the supplied one or else a {@link DeclaredObserverRun}, which
 * builds the protocol's own run and attacks the releases it hands its declared observers through the runtime's
 * {@code ObservableRun} tap ({@link DeclaredObserver}).
 *
 * <p>The trainers are in {@code org.dpdl4j.protocol} and {@code org.dpdl4j.optim}, the attacks in
 * {@code org.dpdl4j.attacks.inversion}, and campaigns over protocols, epsilons and attacks in
 * {@code org.dpdl4j.experiments.campaign}. {@link CampaignSettings} here are a campaign's run settings, unrelated to
 * {@code org.dpdl4j.runtime.options.CampaignSettings}.
 */
package org.dpdl4j.attacks.observe;
