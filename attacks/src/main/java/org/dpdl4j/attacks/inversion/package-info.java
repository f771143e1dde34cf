/**
 * The gradient-inversion attacks, each an {@link InversionAttack} that turns an {@code AttackCase} into an
 * {@code AttackResult}: {@link AnalyticInversion} reads the input in closed form from a dense first layer with a
 * bias, {@link DlgAttack} (DLG) optimises dummy inputs and soft labels jointly, {@link IdlgAttack} (iDLG) first
 * reads the label with {@link LabelRecovery} and then optimises the input alone, and {@link RestartingAttack}
 * reruns an attack from new starts while its matching loss stays well above the level the release's noise explains.
 * {@link DlgConfig} holds the optimisation settings (iterations, snapshots, optimiser, seed, matching engine,
 * precision).
 *
 * <p>The matching loss and its derivatives are in {@code org.dpdl4j.attacks.matching}, the optimisers in
 * {@code org.dpdl4j.attacks.optim}, and the releases the attacks run on are produced in
 * {@code org.dpdl4j.attacks.observe}.
 */
package org.dpdl4j.attacks.inversion;
