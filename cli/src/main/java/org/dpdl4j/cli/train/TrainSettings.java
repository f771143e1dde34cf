package org.dpdl4j.cli.train;

/**
 * The resolved settings of one {@code dpdl4j train} run, written to the run's {@code config.json}; a
 * training job reads nothing else, so no option is lost between the command line and the engine.
 */
public record TrainSettings(CommonOptions.Common common, PrivacyOptions.Privacy privacy,
                            DecentralizedOptions.Decentralized decentralized, FederatedOptions.Federated federated) {
}
