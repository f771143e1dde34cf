package org.dpdl4j.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Spark standalone cluster on this machine's loopback: a master and workers, each a child process of this JVM that
 * runs Spark's own {@code Master} and {@code Worker} from this JVM's class path. For trying the cluster engine on one
 * machine, for the tests that lose a worker, and for the benchmark of executors; a real cluster is started with Spark's
 * {@code sbin} scripts instead. Executors of an application get this JVM's class path (set
 * {@link #executorProperties()} on the application), so they run dpdl4j without shipping a jar.
 */
public final class StandaloneCluster implements AutoCloseable {
    private static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final Process master;
    private final int masterPort;
    private final int masterUiPort;
    private final List<Process> workers = new ArrayList<>();

    private final Thread stopAtExit = new Thread(this::stopProcesses, "dpdl4j-standalone-cluster-stop");

    private StandaloneCluster(Path dir, Process master, int masterPort, int masterUiPort) {
        this.dir = dir;
        this.master = master;
        this.masterPort = masterPort;
        this.masterUiPort = masterUiPort;
        // The daemons are this JVM's children: they go with it even when it ends without closing the cluster.
        Runtime.getRuntime().addShutdownHook(stopAtExit);
    }

    /**
     * Starts a master and {@code workers} workers and waits until every worker has registered.
     *
     * @param dir          where the daemons keep their logs and the executors their work directories
     * @param workers      how many workers
     * @param cores        cores each worker offers
     * @param workerMemory memory each worker offers to executors, e.g. {@code 2g}
     */
    public static StandaloneCluster start(Path dir, int workers, int cores, String workerMemory) {
        try {
            Files.createDirectories(dir.resolve("jars"));   // Spark's launcher wants a SPARK_HOME with a jars folder
            int[] free = freePorts(2);   // two distinct ones: the master's port and its web UI's
            int port = free[0];
            int ui = free[1];
            Process master = launch(dir, "master", List.of("org.apache.spark.deploy.master.Master", "--host", HOST, "--port",
                    Integer.toString(port), "--webui-port", Integer.toString(ui)));
            StandaloneCluster cluster = new StandaloneCluster(dir, master, port, ui);
            try {
                cluster.awaitListening(port, "the master");
                for (int i = 0; i < workers; i++) {
                    cluster.addWorker(cores, workerMemory);
                }
                cluster.awaitWorkers(workers);
                return cluster;
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a standalone cluster in " + dir + ": " + e.getMessage(), e);
        }
    }

    private void addWorker(int cores, String memory) throws IOException {
        int index = workers.size();
        int ui = freePorts(1)[0];
        Path work = Files.createDirectories(dir.resolve("work-" + index));
        workers.add(launch(dir, "worker-" + index, List.of("org.apache.spark.deploy.worker.Worker", "--host", HOST,
                "--webui-port", Integer.toString(ui), "--cores", Integer.toString(cores), "--memory", memory,
                "--work-dir", work.toString(), masterUrl())));
    }

    private static Process launch(Path dir, String name, List<String> mainAndArgs) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", classPath()));
        // Spark's own list of what it opens on Java 17 (its launcher adds the same to every JVM it starts)
        command.addAll(List.of(org.apache.spark.launcher.JavaModuleOptions.defaultModuleOptions().trim().split("\\s+")));
        command.addAll(mainAndArgs);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        Map<String, String> env = pb.environment();
        env.put("SPARK_HOME", dir.toAbsolutePath().toString());
        env.put("SPARK_LOCAL_IP", HOST);
        // The launcher that builds an executor's command looks for Spark's build folders unless it is told the Scala version.
        String scalaVersion = scala.util.Properties.versionNumberString();
        env.put("SPARK_SCALA_VERSION", scalaVersion.substring(0, scalaVersion.lastIndexOf('.')));
        env.put("OMP_NUM_THREADS", "1");
        return pb.start();
    }

    /** The master's URL, {@code spark://127.0.0.1:PORT}. */
    public String masterUrl() {
        return "spark://" + HOST + ":" + masterPort;
    }

    /**
     * What an application needs to run on this cluster's executors: this JVM's class path, the driver on loopback,
     * JavaCPP's memory limits for executors of {@code executorMemory}.
     */
    public Map<String, String> executorProperties() {
        return Map.of("spark.executor.extraClassPath", classPath(),
                "spark.driver.host", HOST, "spark.driver.bindAddress", HOST,
                "spark.executor.extraJavaOptions", "-Dorg.bytedeco.javacpp.maxbytes=1g -Dorg.bytedeco.javacpp.maxphysicalbytes=3g");
    }

    /** The number of workers started. */
    public int workerCount() {
        return workers.size();
    }

    /**
     * The worker that runs process {@code pid} (an executor: a worker starts its executors as child processes), or -1 if
     * no worker does. An executor knows its own process id; the driver learns it from what the executor reports.
     */
    public int workerOfProcess(long pid) {
        for (int i = 0; i < workers.size(); i++) {
            if (workers.get(i).toHandle().descendants().anyMatch(p -> p.pid() == pid)) {
                return i;
            }
        }
        return -1;
    }

    /** Kills worker i at once, with its executors, as a machine that fails does. */
    public void killWorker(int i) {
        Process w = workers.get(i);
        w.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        w.destroyForcibly();
    }

    /** The workers the master counts alive. */
    public int aliveWorkers() {
        try {
            JsonNode state = new ObjectMapper().readTree(URI.create("http://" + HOST + ":" + masterUiPort + "/json/").toURL());
            return state.path("aliveworkers").asInt(0);
        } catch (IOException e) {
            return 0;
        }
    }

    private void awaitWorkers(int count) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (aliveWorkers() < count) {
            requireAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + aliveWorkers() + " of " + count + " workers registered with the master"
                        + " within " + START_TIMEOUT.toSeconds() + " s; see the logs in " + dir);
            }
            pause();
        }
    }

    private void awaitListening(int port, String what) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(HOST, port), 1000);
                return;
            } catch (IOException e) {
                requireAlive();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(what + " did not listen on port " + port + " within " + START_TIMEOUT.toSeconds()
                            + " s; see the logs in " + dir);
                }
                pause();
            }
        }
    }

    private void requireAlive() {
        if (!master.isAlive()) {
            throw new IllegalStateException("the master exited with status " + master.exitValue() + "; see " + dir.resolve("master.log"));
        }
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the cluster", e);
        }
    }

    /** This JVM's class path with absolute entries: executors start in their own work directories. */
    private static String classPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
    }

    /** {@code count} distinct ports free now (held open together while they are chosen, so none comes twice). */
    private static int[] freePorts(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName(HOST));
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    /** Stops every worker (with its executors) and the master. */
    @Override
    public void close() {
        stopProcesses();
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is ending: the hook runs or has run
        }
    }

    private void stopProcesses() {
        for (int i = 0; i < workers.size(); i++) {
            killWorker(i);
        }
        master.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        master.destroyForcibly();
        for (Process p : workers) {
            waitFor(p);
        }
        waitFor(master);
    }

    private static void waitFor(Process p) {
        try {
            p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Where the daemons' logs are. */
    public File logDirectory() {
        return dir.toFile();
    }
}
