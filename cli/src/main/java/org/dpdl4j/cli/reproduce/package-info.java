/**
 * The {@code dpdl4j reproduce} subcommands, grouped by {@link ReproduceCommand}: {@link ReproduceDecorCommand}
 * (Decor's Figure 1), {@link ReproduceDpSgdCommand} (central DP-SGD accuracy against epsilon),
 * {@link Mu2ReproduceCommand} (Tables 1-2 of DP-mu^2-FL), {@link ReproduceRecalCommand} (DP-RECAL against its
 * baselines) and {@link ReproducePersonalizedCommand} (private personalized learning). Each only parses and checks its options and passes a
 * settings record to the matching class of {@code org.dpdl4j.experiments.reproduce}, which runs the grid and writes
 * the results.
 */
package org.dpdl4j.cli.reproduce;
