package org.dpdl4j.spark;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The forms {@code --master} takes, checked when the option is read, so that a URL the cluster would refuse (a local
 * master with 0 threads, a port that is not one) is a usage error naming the option, not a failure deep inside the
 * cluster's start-up: {@code local}, {@code local[N]} and {@code local[*]} (optionally {@code ,F} attempts per task),
 * and {@code spark://HOST:PORT} (several masters comma-separated). YARN and Kubernetes set the master themselves when
 * the cluster jar is submitted with spark-submit.
 */
final class MasterUrl {
    private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:,(\\d+))?])?");
    private static final Pattern HOST_PORT = Pattern.compile("[^,:/\\s]+:(\\d+)");
    private static final String FORMS = "give local[N] (N threads in this process), local[*] or spark://HOST:PORT (a"
            + " standalone cluster's master, e.g. spark://10.0.0.5:7077); for YARN or Kubernetes, submit the cluster jar"
            + " with spark-submit, which sets the master itself";

    private MasterUrl() {
    }

    /** The URL, trimmed, when it has one of the forms; else an error saying which part is wrong and the forms. */
    static String check(String text) {
        String url = text.trim();
        Matcher local = LOCAL.matcher(url);
        if (local.matches()) {
            requireAtLeastOne(local.group(1), "threads", "give local[N] with N >= 1, e.g. local[2], or local[*] for one"
                    + " thread per core");
            requireAtLeastOne(local.group(2), "attempts per task", "give local[N,F] with F >= 1");
            return url;
        }
        if (url.toLowerCase(Locale.ROOT).startsWith("spark://")) {
            for (String master : url.substring("spark://".length()).split(",", -1)) {
                Matcher m = HOST_PORT.matcher(master);
                if (!m.matches() || !isPort(m.group(1))) {
                    throw new IllegalArgumentException("'" + master + "' is not HOST:PORT with a port from 1 to 65535; "
                            + FORMS);
                }
            }
            return url;
        }
        throw new IllegalArgumentException("is not a master URL dpdl4j can start; " + FORMS);
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
