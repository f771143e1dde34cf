/**
 * Central training as registered protocols ({@link CentralProtocols}): {@code sgd}, non-private mini-batch training
 * with DL4J's own {@code fit} ({@link SgdProtocol}, run by {@link MinibatchSgdRun}), and {@code dp-sgd}
 * ({@link DpSgdProtocol}), which builds an {@code org.dpdl4j.optim.PrivateTrainer} from the run's settings.
 * {@link CentralOptions} declares the options only these two read, and {@link Updaters} maps an updater name to a
 * DL4J {@code IUpdater}. The DP-SGD algorithm itself (sampling, clipping, noise, ledger charges) is in
 * {@code org.dpdl4j.optim}; the other protocol families are the sibling packages {@code decentralized},
 * {@code federated} and {@code relay}.
 */
package org.dpdl4j.protocol.central;
