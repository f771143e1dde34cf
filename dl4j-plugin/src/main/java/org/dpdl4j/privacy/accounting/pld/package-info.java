/**
 * Privacy loss distributions: dominating pairs of the Gaussian, Laplace and Poisson-subsampled Gaussian mechanisms,
 * their pessimistic discretisation on a grid (so every epsilon is an upper bound), and composition by FFT.
 */
package org.dpdl4j.privacy.accounting.pld;
