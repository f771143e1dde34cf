package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.dpdl4j.data.RealData;
import picocli.CommandLine;

/**
 * The dpdl4j command run in-process, as {@code main} sets it up (registry options, error handling), with what it
 * printed; the one runner of the command tests and the end-to-end tests.
 */
public record CommandRun(int exitCode, String out, String err) {

    public static CommandRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Dpdl4jCommand.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    /** Both streams, labelled, for assertion messages. */
    public String both() {
        return "--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
    }

    /** The last {@code n} lines of standard output. */
    public List<String> lastLines(int n) {
        String[] lines = out.strip().split("\\R");
        return List.of(lines).subList(lines.length - n, lines.length);
    }

    /** The value of the {@code key=value} line {@code fromEnd} lines from the end of standard output (1 = last). */
    public double lastValue(int fromEnd, String key) {
        String line = lastLines(fromEnd).get(0);
        assertTrue(line.startsWith(key + "="), "expected '" + key + "=' line, got: " + line + "\n" + out);
        return Double.parseDouble(line.substring(key.length() + 1));
    }

    /**
     * The real data directory; skips the calling test (saying why) when DPDL4J_DATA is not set.
     *
     * @param whatNeedsIt what the test needs the data for, for its reader (the skip reason is the same for every data
     *                    test, so that the summary of skipped tests counts them on one line)
     */
    public static String realDataDir(String whatNeedsIt) {
        return RealData.directory().path().toString();
    }
}
