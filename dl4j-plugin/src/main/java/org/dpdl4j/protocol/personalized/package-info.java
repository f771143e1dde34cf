/**
 * Private personalized learning (Bellet et al., spec section 6): every agent learns a model of its own, pulled towards
 * its neighbours' on a similarity graph. The joint objective is {@link org.dpdl4j.protocol.personalized.PersonalizedProblem};
 * the runs that minimise it are asynchronous block coordinate descent, non-private or with each release noised by its
 * {@link org.dpdl4j.protocol.personalized.ReleasePlan} ({@link org.dpdl4j.protocol.personalized.CoordinateDescentRun}),
 * model propagation ({@link org.dpdl4j.protocol.personalized.ModelPropagationRun}) and gossip ADMM
 * ({@link org.dpdl4j.protocol.personalized.GossipAdmmRun}); the baselines are purely local models
 * ({@link org.dpdl4j.protocol.personalized.LocalModels}) and local perturbation of the data
 * ({@link org.dpdl4j.protocol.personalized.LocalDataPerturbation}). How an agent's budget is split over its releases
 * is a {@link org.dpdl4j.protocol.personalized.BudgetAllocation}; the protocols are registered by
 * {@link org.dpdl4j.protocol.personalized.PersonalizedProtocols}.
 */
package org.dpdl4j.protocol.personalized;
