package org.dpdl4j.protocol.federated;

import java.util.Locale;

/** The federated-averaging algorithms of the slides (spec 7.1-7.3). */
public enum FedAvgVariant {
    /** FedAvg (McMahan et al. 2017): local SGD steps, the server averages the updates; no privacy. */
    FEDAVG("fedavg"),
    /** DP-FedAvg with local DP (untrusted server): each client clips its update to S and adds N(0, (zS)^2 I). */
    DP_LOCAL("dp-fedavg-local"),
    /** DP-FedAvg with central DP (trusted server): the server clips each update to S and adds N(0, (zS)^2 I) to the sum. */
    DP_CENTRAL("dp-fedavg-central"),
    /**
     * GOPA secure averaging of the clipped updates: pairwise-cancelling noise on a random k-out graph plus
     * independent noise per client; the server sees only the noisy values (spec 7.3).
     */
    GOPA("gopa");

    private final String cliName;

    FedAvgVariant(String cliName) {
        this.cliName = cliName;
    }

    /** Command-line name. */
    public String cliName() {
        return cliName;
    }

    /** Whether the variant clips and adds noise. */
    public boolean isPrivate() {
        return this != FEDAVG;
    }

    /** The variant with this command-line name. */
    public static FedAvgVariant fromCliName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (FedAvgVariant v : values()) {
            if (v.cliName.equals(n)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown federated averaging variant '" + name
                + "'; use fedavg, dp-fedavg-local, dp-fedavg-central or gopa");
    }
}
