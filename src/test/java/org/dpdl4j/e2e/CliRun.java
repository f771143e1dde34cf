package org.dpdl4j.e2e;

import org.dpdl4j.cli.Dpdl4jCommand;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the dpdl4j command in-process and captures what it prints. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Dpdl4jCommand.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    String both() {
        return "--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
    }
}
