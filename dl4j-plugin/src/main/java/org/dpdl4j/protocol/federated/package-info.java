/**
 * Federated learning with a server: the parties' models, estimates and updates are rows of stacked tensors and
 * each round takes one batched gradient pass for all of them.
 *
 * <ul>
 *   <li><b>mu^2-SGD</b> (spec 4.2): {@link org.dpdl4j.protocol.federated.Mu2Sgd} for one DL4J network,
 *       {@link org.dpdl4j.protocol.federated.Mu2Machines} and {@link org.dpdl4j.protocol.federated.Mu2Iterates} for the
 *       machine and server sides;</li>
 *   <li><b>DP-mu^2-FL</b> (spec 4.3-4.5): {@link org.dpdl4j.protocol.federated.Mu2Trainer} with an untrusted or trusted
 *       server ({@link org.dpdl4j.protocol.federated.ServerTrust}), constants and the clip S of every increment
 *       ({@link org.dpdl4j.protocol.federated.Mu2Constants}), accounting and calibration
 *       ({@link org.dpdl4j.protocol.federated.Mu2Privacy}), step size ({@link org.dpdl4j.protocol.federated.Mu2StepSize});</li>
 *   <li><b>FedAvg, DP-FedAvg, GOPA</b> (spec 7.1-7.3): {@link org.dpdl4j.protocol.federated.FedAvgTrainer},
 *       {@link org.dpdl4j.protocol.federated.FedAvgPrivacy}, {@link org.dpdl4j.protocol.federated.GopaAveraging},
 *       {@link org.dpdl4j.protocol.federated.GopaAccountant}, {@link org.dpdl4j.protocol.federated.GopaCalibration}.</li>
 * </ul>
 *
 * <p>Random-walk SGD (spec 7.4) lives in {@code org.dpdl4j.protocol.randomwalk}, and these runs are checkpointed by
 * {@code org.dpdl4j.runtime.RunCheckpoint}.
 */
package org.dpdl4j.protocol.federated;
