package org.dpdl4j.privacy.noise;

import java.io.PrintStream;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * A warning that a user of the library must see whatever the application's logging: it goes through SLF4J, and, when
 * SLF4J has no logging provider on the class path (it then discards every message after one line of its own that does
 * not say what was lost), to standard error as well. An application that configured logging sees it where it sees the
 * rest and nowhere else.
 */
final class UnmissableWarning {
    private UnmissableWarning() {
    }

    /** Logs the warning, and prints it on standard error when no logging provider would show it. */
    static void warn(Logger log, String message) {
        warn(log, message, LoggerFactory.getILoggerFactory(), System.err);
    }

    /** {@link #warn(Logger, String)} with the logging set-up and the fallback stream given. */
    static void warn(Logger log, String message, ILoggerFactory logging, PrintStream fallback) {
        log.warn(message);
        if (logging instanceof NOPLoggerFactory) {
            fallback.println("WARNING (dpdl4j): " + message);
            fallback.flush();
        }
    }
}
