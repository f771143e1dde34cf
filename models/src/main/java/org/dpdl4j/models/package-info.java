/**
 * DL4J network configurations for the models of dpdl4j: {@link org.dpdl4j.models.MlpModel},
 * {@link org.dpdl4j.models.LogisticRegressionModel}, {@link org.dpdl4j.models.SoftmaxRegressionModel},
 * {@link org.dpdl4j.models.LeastSquaresModel} and the DLG target {@link org.dpdl4j.models.DlgLeNetModel},
 * named for the command line by {@link org.dpdl4j.models.ModelKind} and sharing
 * {@link org.dpdl4j.models.ModelOptions}.
 */
package org.dpdl4j.models;
