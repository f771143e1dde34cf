/**
 * The {@code dpdl4j} command line, built with picocli. {@link Dpdl4jCommand} is the entry point (subcommands, error
 * handling); {@link AccountCommand} and its subcommands do privacy accounting and noise calibration for DP-SGD,
 * Decor, DP-RECAL and private personalized learning, {@link AttackCommand} runs gradient-inversion attacks on simulated releases (with its
 * {@code report} and {@code compare} subcommands), and {@link DatasetsCommand} checks and fetches data sets.
 * {@link Converters} and {@link DataDirOption} are option parsing shared by the annotation-declared commands.
 *
 * <p>The {@code train}, {@code reproduce} and {@code bench} commands are in the subpackages {@code cli.train},
 * {@code cli.reproduce} and {@code cli.bench}. Commands parse options and print; the work is done by the library,
 * the attacks module and the experiments module.
 */
package org.dpdl4j.cli;
