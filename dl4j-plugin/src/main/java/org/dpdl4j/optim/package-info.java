/**
 * Central DP-SGD on a DL4J {@code MultiLayerNetwork} or {@code ComputationGraph}. {@link PrivateTrainer} is the entry point, configured by
 * {@link DpSgdConfig}: it draws batches with a {@link BatchSampler} ({@link PoissonSampler} or
 * {@link FixedSizeSampler}), charges each step to its ledger and takes a {@link DpOptimizer} step (per-example
 * clipping, Gaussian noise, the network's own updater, applied block by block by {@code UpdaterBlocks}).
 * {@link PerExampleGradients} computes per-example norms and the clipped sum from one batched pass over the
 * {@link DenseNetworkSpec} that {@link DpModelValidator} extracts, in ND4J operations, for one model or for n models
 * stacked as rows (as the multi-party trainers use it); a float32 dense network on the CPU gets the same algorithm
 * from {@code HostDenseGradients}, with BLAS for the large products and plain Java for the rest (an ND4J call costs
 * tens of microseconds, which was most of a small model's step); other networks (convolutions, embeddings, graphs)
 * are clipped layer by layer by {@code org.dpdl4j.optim.layers}, and {@link ExampleGradients#of} picks the engine;
 * {@link PerExampleGradientOracle} checks it against DL4J, and {@link StepObserver} receives each released gradient
 * as a {@link StepTap}.
 *
 * <p>Accountants and the ledger live in {@code org.dpdl4j.privacy.accounting} and
 * {@code org.dpdl4j.privacy.ledger}, noise sources in {@code org.dpdl4j.privacy.noise}, and the registered
 * {@code dp-sgd} protocol that wraps this trainer in {@code org.dpdl4j.protocol.central}. The attack optimisers
 * (L-BFGS, Adam) are unrelated and live in {@code org.dpdl4j.attacks.optim}.
 */
package org.dpdl4j.optim;
