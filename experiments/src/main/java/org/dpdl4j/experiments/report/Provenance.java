package org.dpdl4j.experiments.report;

import java.io.IOException;
import java.io.InputStream;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Where a run's results came from: the software that produced them, the machine, the seeds and the
 * start time. Written into {@code config.json} beside the resolved configuration.
 *
 * @param dpdl4jVersion version of the dpdl4j command
 * @param javaVersion   Java runtime version
 * @param javaVendor    Java runtime vendor
 * @param os            operating system name, version and architecture
 * @param processors    processors available to the JVM
 * @param nd4jBackend   ND4J backend class in use (CPU or CUDA), or why none could be loaded
 * @param startTime     start of the run, with its UTC offset
 * @param seeds         every seed of the run by purpose (e.g. "master", "partition")
 * @param arguments     the command-line arguments as given
 */
public record Provenance(String dpdl4jVersion, String javaVersion, String javaVendor, String os, int processors,
                         String nd4jBackend, OffsetDateTime startTime, Map<String, Long> seeds,
                         List<String> arguments) {

    private static final String POM_PROPERTIES = "/META-INF/maven/org.dpdl4j/dpdl4j-cli/pom.properties";

    public Provenance {
        Objects.requireNonNull(startTime, "startTime must not be null");
        Objects.requireNonNull(seeds, "seeds must not be null (give an empty map when the run draws nothing)");
        seeds.forEach((purpose, seed) -> {
            if (purpose == null || purpose.isBlank() || seed == null) {
                throw new IllegalArgumentException("seeds must map a named purpose to a seed, got " + purpose + " -> "
                        + seed);
            }
        });
        // Insertion order is kept, so config.json lists the seeds as the command gave them.
        seeds = Collections.unmodifiableMap(new LinkedHashMap<>(seeds));
        arguments = List.copyOf(Objects.requireNonNull(arguments, "arguments must not be null"));
    }

    /**
     * The provenance of a run starting now, in this JVM. Loads ND4J to name its backend (which training
     * does anyway).
     *
     * @param seeds     seeds by purpose, in the order they should be listed
     * @param arguments command-line arguments of the run
     */
    public static Provenance capture(Map<String, Long> seeds, List<String> arguments) {
        return new Provenance(packagedVersion(), System.getProperty("java.version"),
                System.getProperty("java.vendor"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), loadedNd4jBackend(),
                OffsetDateTime.now(ZoneId.systemDefault()).truncatedTo(ChronoUnit.SECONDS), seeds, arguments);
    }

    /** The version of the packaged command, or a note that the classes do not come from its jar. */
    static String packagedVersion() {
        try (InputStream in = Provenance.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                if (version != null && !version.isBlank()) {
                    return version;
                }
            }
        } catch (IOException e) {
            return "unknown (cannot read " + POM_PROPERTIES + ": " + e.getMessage() + ")";
        }
        String implementation = Provenance.class.getPackage().getImplementationVersion();
        return implementation != null ? implementation : "unknown (not run from the packaged dpdl4j jar)";
    }

    private static String loadedNd4jBackend() {
        try {
            return org.nd4j.linalg.factory.Nd4j.getBackend().getClass().getName();
        } catch (RuntimeException | LinkageError e) {
            return "unavailable (" + e + ")";
        }
    }
}
