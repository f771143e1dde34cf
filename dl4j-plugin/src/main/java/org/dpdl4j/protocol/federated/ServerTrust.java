package org.dpdl4j.protocol.federated;

/**
 * Who adds the noise in a server-coordinated protocol (DP-mu^2-FL Algorithms 1 and 2; DP-FedAvg local and
 * central).
 */
public enum ServerTrust {
    /**
     * Machines trust nobody: each privatises every message it sends, and the server (or any eavesdropper)
     * sees only noisy messages.
     */
    UNTRUSTED,
    /**
     * The server sees the raw messages and privatises their aggregate, which protects every machine against
     * the others (they see only what the server broadcasts).
     */
    TRUSTED
}
