package org.dpdl4j.privacy.accounting.correlated;

import java.util.Locale;

/**
 * Who observes a protocol with pairwise-cancelling (correlated) Gaussian noise, and which pairwise
 * secrets that observer knows (Decor SecLDP adversaries I-III; the same for GOPA).
 *
 * <p>Colluding users pool their secrets and their own private noise; everything they can subtract
 * leaves the honest users H with the induced honest subgraph {@code G[H]}. The accountant takes the
 * worst honest set of the allowed size.
 */
public sealed interface Adversary {

    /** Number of users whose secrets the adversary holds (0 for the eavesdropper). */
    int colluders();

    /** Command-line form: {@code eavesdropper}, {@code curious} or {@code colluding:Q}. */
    String name();

    /** One sentence for reports. */
    String describe();

    /** External eavesdropper (adversary I): sees every message, knows no secret. */
    static Adversary eavesdropper() {
        return new Eavesdropper();
    }

    /**
     * Honest-but-curious users without collusion (adversary II): each user knows the secrets of its
     * own edges, so the worst case is over the n single-vertex deletions.
     */
    static Adversary curious() {
        return new CuriousUsers();
    }

    /** Any q users pooling their secrets (adversary III), {@code q >= 1}. */
    static Adversary colluding(int q) {
        return new Colluding(q);
    }

    /** Parses {@code eavesdropper}, {@code curious} or {@code colluding:Q} (case-insensitive). */
    static Adversary parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("adversary is missing; use eavesdropper, curious or colluding:Q");
        }
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("eavesdropper")) {
            return eavesdropper();
        }
        if (t.equals("curious")) {
            return curious();
        }
        if (t.startsWith("colluding:")) {
            String q = t.substring("colluding:".length()).strip();
            try {
                return colluding(Integer.parseInt(q));
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("adversary '" + text + "': the number of colluders '" + q
                        + "' is not an integer; use colluding:Q, e.g. colluding:2");
            }
        }
        throw new IllegalArgumentException("unknown adversary '" + text + "'; use eavesdropper, curious or colluding:Q");
    }

    /** Adversary I. */
    record Eavesdropper() implements Adversary {
        @Override
        public int colluders() {
            return 0;
        }

        @Override
        public String name() {
            return "eavesdropper";
        }

        @Override
        public String describe() {
            return "external eavesdropper: sees every message, knows no pairwise secret";
        }
    }

    /** Adversary II. */
    record CuriousUsers() implements Adversary {
        @Override
        public int colluders() {
            return 1;
        }

        @Override
        public String name() {
            return "curious";
        }

        @Override
        public String describe() {
            return "honest-but-curious users, no collusion: the worst single user's view (one vertex deleted)";
        }
    }

    /**
     * Adversary III.
     *
     * @param q number of colluding users, at least 1
     */
    record Colluding(int q) implements Adversary {
        /** Validates q. */
        public Colluding {
            if (q < 1) {
                throw new IllegalArgumentException("number of colluding users q = " + q + " must be at least 1"
                        + (q == 0 ? "; use the eavesdropper for q = 0" : ""));
            }
        }

        @Override
        public int colluders() {
            return q;
        }

        @Override
        public String name() {
            return "colluding:" + q;
        }

        @Override
        public String describe() {
            return "any " + q + " colluding users pooling their pairwise secrets and private noise";
        }
    }
}
