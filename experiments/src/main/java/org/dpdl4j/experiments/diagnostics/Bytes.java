package org.dpdl4j.experiments.diagnostics;

import java.util.Locale;

/** Byte counts for people: 1.5 GiB, 512 MiB. */
public final class Bytes {
    private Bytes() {
    }

    public static String format(long bytes) {
        if (bytes < 0) {
            return "unknown";
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
