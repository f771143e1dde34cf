/**
 * DP-RECAL (Wang, Guo, Yang, Shi) and its baselines, spec section 5: the composite problem
 * {@code min_X sum_i f_i(X; D_i) + g(X)} over a graph, solved by the AFBS primal-dual iteration run by relay
 * ({@link org.dpdl4j.protocol.recal.RelayRecal}: a baton {@code (y, sum of duals)} on a random walk, one agent per
 * iteration) or synchronously ({@link org.dpdl4j.protocol.recal.SynchronousAfbs}), and by the gossip baselines
 * PG-EXTRA and NIDS; the private variants publish duals or models with decaying Gaussian noise, accounted per agent over
 * its publications as the Gaussian releases they are ({@link org.dpdl4j.protocol.recal.DecayingNoisePrivacy}). The
 * reference solution comes from {@link org.dpdl4j.protocol.recal.ProximalSolver}. Runs are built by
 * {@link org.dpdl4j.protocol.recal.PrimalDualRunBuilder} and registered by
 * {@link org.dpdl4j.protocol.recal.PrimalDualProtocols}.
 */
package org.dpdl4j.protocol.recal;
