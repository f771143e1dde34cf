package org.dpdl4j.data;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Says on the console, once per module, why tests were skipped: each reason (for instance that DPDL4J_DATA is not
 * set) with the number of tests it skipped. Maven's own summary gives only the counts, and the reasons would
 * otherwise stay in the XML reports.
 *
 * <p>Registered for the JUnit Platform through {@code META-INF/services}, so it runs wherever this module's test jar
 * is on the class path. It writes to the process's own standard error: Surefire sends the tests' {@code System.err}
 * to report files, but prints the forked JVM's native error stream on the console.
 */
public final class SkippedTestsSummary implements TestExecutionListener {
    private static final String ASSUMPTION_PREFIX = "Assumption failed: ";

    private final Map<String, Integer> byReason = new TreeMap<>();
    private TestPlan plan;

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier test, String reason) {
        count(test, reason);
    }

    /** A test whose assumption failed; a class whose assumption failed in {@code @BeforeAll} skips all its tests. */
    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            count(test, result.getThrowable().map(Throwable::getMessage).orElse(null));
        }
    }

    private void count(TestIdentifier test, String reason) {
        long tests = test.isTest() ? 1 : plan == null ? 0 : plan.getDescendants(test).stream().filter(TestIdentifier::isTest).count();
        if (tests == 0) {
            return;
        }
        String r = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
        byReason.merge(r.startsWith(ASSUMPTION_PREFIX) ? r.substring(ASSUMPTION_PREFIX.length()) : r, (int) tests, Integer::sum);
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan plan) {
        if (byReason.isEmpty()) {
            return;
        }
        PrintStream console = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        // counted per test: a class whose @BeforeAll assumption failed counts all its tests (Surefire counts none)
        console.println("[dpdl4j] tests skipped in " + module() + ", by reason:");
        byReason.forEach((reason, count) -> console.println("[dpdl4j]   " + count + (count == 1 ? " test: " : " tests: ") + reason));
        console.flush();
        byReason.clear();
    }

    /** The module under test: Surefire runs the tests in the module's directory and names it in "basedir". */
    private static String module() {
        Path dir = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        return dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
    }
}
