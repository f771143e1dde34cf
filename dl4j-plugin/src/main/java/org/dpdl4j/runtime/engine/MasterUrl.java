package org.dpdl4j.runtime.engine;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The forms {@code --master} takes, checked when the option is read, so that a URL the cluster would refuse (a local
 * master with 0 threads, a port that is not a number) is a usage error naming the option, not a failure deep inside
 * the cluster's start-up.
 */
final class MasterUrl {
    private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:,(\\d+))?])?");
    private static final Pattern STANDALONE = Pattern.compile("spark://([^:/,\\s]+):(\\d+)");
    private static final String FORMS = "local[N] (N threads in this process, N >= 1), local[*] (one per core) or"
            + " spark://HOST:PORT (a standalone cluster); yarn, k8s://... and mesos://... are passed on to Spark";

    private MasterUrl() {
    }

    /** The URL as given when it has one of the forms; else an error saying which part is wrong. */
    static String check(String url) {
        Matcher local = LOCAL.matcher(url);
        if (local.matches()) {
            requireAtLeastOne(local.group(1), "threads", "give local[N] with N >= 1, e.g. local[2], or local[*] for one"
                    + " thread per core");
            requireAtLeastOne(local.group(2), "attempts per task", "give local[N,F] with F >= 1");
            return url;
        }
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("spark://")) {
            for (String master : url.substring("spark://".length()).split(",", -1)) {
                Matcher m = STANDALONE.matcher("spark://" + master);
                if (!m.matches() || !isPort(m.group(2))) {
                    throw new IllegalArgumentException("'" + master + "' is not HOST:PORT with a port from 1 to 65535; a"
                            + " standalone master is spark://HOST:PORT (several: spark://H1:P1,H2:P2)");
                }
            }
            return url;
        }
        if (lower.equals("yarn") || lower.startsWith("k8s://") || lower.startsWith("mesos://")
                || lower.startsWith("local-cluster[")) {
            return url;
        }
        throw new IllegalArgumentException("is not a Spark master URL; use " + FORMS);
    }

    private static void requireAtLeastOne(String count, String what, String fix) {
        if (count != null && !count.equals("*") && !(count.length() < 10 && Integer.parseInt(count) >= 1)) {
            throw new IllegalArgumentException("asks for " + count + " " + what + "; " + fix);
        }
    }

    private static boolean isPort(String digits) {
        return digits.length() <= 5 && Integer.parseInt(digits) >= 1 && Integer.parseInt(digits) <= 65535;
    }
}
