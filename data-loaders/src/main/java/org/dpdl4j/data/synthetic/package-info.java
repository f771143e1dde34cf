/**
 * Generated workloads with known structure, reproducible from a seed: {@link DecorLeastSquares}, Decor's synthetic
 * least-squares problem (one {@code RegressionData} per user and the exact optimum of the sum, for optimality
 * gaps), and the collaborative linear classification of Bellet et al., where
 * {@link BelletCollaborativeClassification} generates a {@link BelletProblem} of {@link BelletAgent}s and their
 * similarity matrix from a {@link BelletConfig}, with features bounded in a {@link FeatureNorm}. Real data sets are
 * read by the sibling reader packages; the Decor task is turned into a training workload in
 * {@code org.dpdl4j.experiments.workload} and {@code org.dpdl4j.experiments.reproduce}.
 */
package org.dpdl4j.data.synthetic;
