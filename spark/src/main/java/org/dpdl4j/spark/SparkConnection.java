package org.dpdl4j.spark;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the Spark application of a run. Spark properties come from the JVM's {@code spark.*} system properties
 * (spark-submit sets them; {@code -Dspark.executor.memory=4g} and the like work from the command line too); dpdl4j sets
 * only what it needs where they say nothing: the master, the application name, no web UI, one OpenMP thread per
 * executor task, uncompressed broadcasts (model rows do not compress). On a standalone cluster it first checks that the master answers, ships the driver's jars when the
 * application was not submitted with its own, and waits for the first executor, so that a wrong address or a cluster
 * without free workers is an error that says so, not a hang.
 */
final class SparkConnection {
    private static final Logger LOG = LoggerFactory.getLogger(SparkConnection.class);
    private static final int CONNECT_TIMEOUT_MS = 5000;

    private SparkConnection() {
    }

    static JavaSparkContext open(SparkSettings settings, String purpose) {
        SparkConf conf = new SparkConf();
        settings.properties().forEach(conf::set);
        String master = settings.master() != null ? settings.master() : conf.get("spark.master", "local[*]");
        conf.setMaster(master);
        conf.setIfMissing("spark.app.name", purpose);
        conf.setIfMissing("spark.ui.enabled", "false");
        conf.setIfMissing("spark.executorEnv.OMP_NUM_THREADS", "1");
        // Models and noisy messages do not compress: compressing the broadcast ones only costs time.
        conf.setIfMissing("spark.broadcast.compress", "false");
        // A block's messages (megabytes) come back with its task's status, not through a second fetch.
        conf.setIfMissing("spark.task.maxDirectResultSize", "64m");
        conf.setIfMissing("spark.rpc.message.maxSize", "256");
        boolean standalone = master.toLowerCase(Locale.ROOT).startsWith("spark://");
        if (standalone) {
            requireReachable(master);
            shipClassPath(conf);
        }
        JavaSparkContext sc;
        try {
            sc = new JavaSparkContext(conf);
        } catch (Exception e) {   // Spark's own SparkException is checked, but Scala throws it undeclared
            throw SparkOptions.MASTER.invalid("--master " + master + ": Spark could not start the application: " + e.getMessage());
        }
        if (!master.startsWith("local")) {
            awaitExecutor(sc, master, settings);
        }
        LOG.info("Spark application {} on {} ({} cores)", sc.sc().applicationId(), master, sc.defaultParallelism());
        return sc;
    }

    /** Refuses a standalone master URL none of whose masters accepts a connection. */
    private static void requireReachable(String master) {
        List<String> problems = new ArrayList<>();
        for (String hostPort : master.substring("spark://".length()).split(",")) {
            int colon = hostPort.lastIndexOf(':');
            String host = hostPort.substring(0, colon);
            int port = Integer.parseInt(hostPort.substring(colon + 1));
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
                return;
            } catch (IOException e) {
                problems.add(hostPort + " (" + e.getMessage() + ")");
            }
        }
        throw SparkOptions.MASTER.invalid("--master " + master + ": no Spark master answers at " + String.join(", ", problems)
                + "; start one (sbin/start-master.sh, or StandaloneCluster on this machine) or check the host and port");
    }

    /**
     * A standalone cluster provides Spark, not dpdl4j: unless the application brings its jars (spark-submit sets
     * {@code spark.jars}) or the executors have them already ({@code spark.executor.extraClassPath}), the driver ships
     * the jars of its class path that the cluster lacks (all but Spark's, Scala's and Hadoop's client).
     */
    private static void shipClassPath(SparkConf conf) {
        if (conf.contains("spark.jars") || conf.contains("spark.executor.extraClassPath")) {
            return;
        }
        List<String> jars = new ArrayList<>();
        List<String> folders = new ArrayList<>();
        for (File f : classPath()) {
            if (f.isDirectory()) {
                folders.add(f.getPath());
            } else if (f.getName().endsWith(".jar") && !providedByTheCluster(f.getName())) {
                jars.add(f.getAbsolutePath());
            }
        }
        if (!folders.isEmpty()) {
            throw SparkOptions.MASTER.invalid("the driver's class path holds folders (" + String.join(", ", folders) + "), which"
                    + " cannot be shipped to a cluster's executors; run the packaged dpdl4j command or submit the cluster jar"
                    + " with spark-submit, or set spark.executor.extraClassPath where the executors share this file system");
        }
        conf.set("spark.jars", String.join(",", jars));
        LOG.info("shipping {} jars of the class path to the executors", jars.size());
    }

    /**
     * The class path's entries, with the jars that a jar's manifest lists ({@code java -jar dpdl4j.jar} puts only the
     * tool's jar on {@code java.class.path}; its manifest names the libraries beside it).
     */
    private static List<File> classPath() {
        java.util.LinkedHashSet<File> out = new java.util.LinkedHashSet<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            File f = new File(entry).getAbsoluteFile();
            out.add(f);
            if (f.isFile() && f.getName().endsWith(".jar")) {
                try (java.util.jar.JarFile jar = new java.util.jar.JarFile(f)) {
                    java.util.jar.Manifest manifest = jar.getManifest();
                    String listed = manifest == null ? null : manifest.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
                    if (listed != null) {
                        for (String relative : listed.trim().split("\\s+")) {
                            out.add(new File(f.getParentFile(), relative).getAbsoluteFile());
                        }
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException("cannot read the manifest of " + f + ": " + e.getMessage(), e);
                }
            }
        }
        return List.copyOf(out);
    }

    private static boolean providedByTheCluster(String jar) {
        return jar.startsWith("spark-") || jar.startsWith("scala-") || jar.startsWith("hadoop-client-");
    }

    private static void awaitExecutor(JavaSparkContext sc, String master, SparkSettings settings) {
        long deadline = System.nanoTime() + settings.executorWait().toNanos();
        while (sc.sc().statusTracker().getExecutorInfos().length < 2) {   // the driver is listed too
            if (System.nanoTime() > deadline) {
                sc.stop();
                throw SparkOptions.MASTER.invalid("--master " + master + ": the cluster gave this application no executor within "
                        + settings.executorWait().toSeconds() + " s; check that its workers are alive and have free cores and"
                        + " the memory asked for (spark.executor.memory, default 1g)");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sc.stop();
                throw new IllegalStateException("interrupted while waiting for the cluster's executors", e);
            }
        }
    }
}
