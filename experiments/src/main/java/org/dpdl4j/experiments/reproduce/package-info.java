/**
 * Reproductions of published experiments, each a grid of training runs reported next to the paper's numbers:
 * {@link DecorReproduction} (Decor's Figure 1 on its synthetic, a9a and MNIST tasks), {@link DpSgdReproduction}
 * (central DP-SGD accuracy against epsilon, tuned on a held-out split) and {@link Mu2Reproduction} (Tables 1-2 of
 * DP-mu^2-FL). The Decor and mu^2 reproductions read finished runs back from their results files, so an interrupted
 * reproduction resumes. The trainers they drive are the library's ({@code org.dpdl4j.protocol},
 * {@code org.dpdl4j.optim}), files and figures go through {@code org.dpdl4j.experiments.report}, and the
 * {@code dpdl4j reproduce} commands are in {@code org.dpdl4j.cli.reproduce}.
 */
package org.dpdl4j.experiments.reproduce;
