/**
 * The gradient-matching objective of DLG-style attacks. A {@link MatchingProblem} fixes the attacked network, the
 * per-stage target, the batch size, the {@link LabelTreatment} (labels optimised or fixed), an optional fitted
 * scale and an optional {@link SecondPoint} (for mu^2-SGD increments, a weighted difference of gradients at two
 * models); a {@link MatchingObjective} evaluates the loss and its gradient over the flat vector of unknowns laid
 * out by {@link UnknownLayout}. {@link MatchingEngine} picks the implementation: {@link DenseGradientMatching},
 * hand-derived in ND4J ops for dense networks, or {@link SameDiffGradientMatching}, a SameDiff graph that also
 * handles convolutions.
 *
 * <p>The network representation both differentiate through is {@code org.dpdl4j.attacks.network}; the optimisers
 * that minimise the objective are in {@code org.dpdl4j.attacks.optim}, and the attacks that set up problems and
 * read results are in {@code org.dpdl4j.attacks.inversion}.
 */
package org.dpdl4j.attacks.matching;
