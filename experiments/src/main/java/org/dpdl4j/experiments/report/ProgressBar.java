package org.dpdl4j.experiments.report;

import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Progress of a long run on stderr: {@code step/total}, percent, rate, elapsed time, ETA and key=value
 * fields the caller updates (e.g. {@code loss=0.31 acc=0.92 eps=1.84}).
 *
 * <p>On a terminal the line is redrawn in place with '\r' (at most every {@code redrawInterval}); otherwise
 * (CI logs, redirected output) a full line is printed at most every {@code logInterval}. A final line is
 * always printed by {@link #finish()} (or {@link #close()}). Updates between draws cost a counter increment,
 * a clock read and a comparison, so calling {@link #step()} from a loop millions of times is cheap.
 * Methods are synchronized, so nodes stepping from several threads are counted correctly.
 */
public final class ProgressBar implements AutoCloseable {
    private static final int BAR_WIDTH = 24;

    private final String label;
    private final long total;
    private final String unit;
    private final PrintStream out;
    private final boolean interactive;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final Map<String, String> fields = new LinkedHashMap<>();

    private long done;
    private long lastDrawNanos;
    private int lastLineLength;
    private boolean finished;

    private ProgressBar(Builder builder) {
        this.label = builder.label;
        this.total = builder.total;
        this.unit = builder.unit;
        this.out = builder.out;
        this.interactive = builder.interactive;
        this.intervalNanos = (interactive ? builder.redrawInterval : builder.logInterval).toNanos();
        this.nanoClock = builder.nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.lastDrawNanos = startNanos;
        if (interactive) {
            draw(startNanos);
        }
    }

    /**
     * A progress bar on stderr, redrawn in place when stderr is a terminal ({@code System.console() != null}),
     * else logged every 30 seconds.
     */
    public static ProgressBar start(String label, long total) {
        return builder(label, total).build();
    }

    /** Options of a progress bar; defaults as in {@link #start}. */
    public static Builder builder(String label, long total) {
        return new Builder(label, total);
    }

    /** Records one more step. */
    public synchronized void step() {
        advanceTo(done + 1);
    }

    /** Records {@code steps} more steps. */
    public synchronized void step(long steps) {
        if (steps < 0) {
            throw new IllegalArgumentException(label + ": cannot step by " + steps + "; progress only moves forward");
        }
        advanceTo(done + steps);
    }

    /** Sets the number of steps done so far (it never decreases). */
    public synchronized void set(long stepsDone) {
        if (stepsDone < done) {
            throw new IllegalArgumentException(label + ": progress cannot go back from " + done + " to " + stepsDone);
        }
        advanceTo(stepsDone);
    }

    private synchronized void advanceTo(long stepsDone) {
        if (finished) {
            throw new IllegalStateException(label + ": progress reported after finish()");
        }
        if (stepsDone > total) {
            throw new IllegalStateException(label + ": step " + stepsDone + " exceeds the total of " + total
                    + " given at start; fix the total or the loop");
        }
        done = stepsDone;
        long now = nanoClock.getAsLong();
        if (now - lastDrawNanos >= intervalNanos) {
            draw(now);
        }
    }

    /** Sets a field shown after the progress, with four significant digits. */
    public synchronized ProgressBar field(String key, double value) {
        fields.put(checkKey(key), compact(value));
        return this;
    }

    /**
     * Sets a field whose value carries a qualifier, e.g. {@code Decor-ring=0.148(eps=20)}: for fields that each come
     * from a different setting, so that no value is read as belonging to another.
     */
    public synchronized ProgressBar field(String key, double value, String qualifier) {
        fields.put(checkKey(key), compact(value) + "(" + Objects.requireNonNull(qualifier, "qualifier of field " + key) + ")");
        return this;
    }

    /** Sets an integer field. */
    public synchronized ProgressBar field(String key, long value) {
        fields.put(checkKey(key), Long.toString(value));
        return this;
    }

    /** Sets a text field. */
    public synchronized ProgressBar field(String key, String value) {
        fields.put(checkKey(key), Objects.requireNonNull(value, "value of field " + key + " must not be null"));
        return this;
    }

    private static String checkKey(String key) {
        if (key == null || key.isBlank() || key.contains(" ") || key.contains("=")) {
            throw new IllegalArgumentException("progress field name '" + key + "' must be non-blank without spaces "
                    + "or '='");
        }
        return key;
    }

    /** Steps done so far. */
    public synchronized long done() {
        return done;
    }

    /** Prints the final line (once); later calls do nothing. */
    public synchronized void finish() {
        if (finished) {
            return;
        }
        finished = true;
        long now = nanoClock.getAsLong();
        String line = line(now, true);
        if (interactive) {
            out.print('\r' + line + padding(line) + '\n');
        } else {
            out.println(line);
        }
        out.flush();
    }

    @Override
    public void close() {
        finish();
    }

    private void draw(long now) {
        lastDrawNanos = now;
        String line = line(now, false);
        if (interactive) {
            out.print('\r' + line + padding(line));
            lastLineLength = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** Spaces that blank the rest of a longer previous line. */
    private String padding(String line) {
        return " ".repeat(Math.max(0, lastLineLength - line.length()));
    }

    /** The progress line at time {@code now}. */
    private String line(long now, boolean last) {
        double elapsed = (now - startNanos) / 1e9;
        double fraction = (double) done / total;
        StringBuilder s = new StringBuilder(label).append(' ');
        if (interactive) {
            int filled = (int) Math.floor(fraction * BAR_WIDTH);
            s.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("] ");
        }
        s.append(done).append('/').append(total)
                .append(String.format(Locale.ROOT, " %5.1f%%", 100 * fraction));
        double rate = elapsed > 0 ? done / elapsed : 0;
        s.append(' ').append(elapsed > 0 ? compact(rate) : "-").append(' ').append(unit).append("/s");
        s.append(" elapsed ").append(clock(elapsed));
        if (!last) {
            s.append(" ETA ").append(rate > 0 ? clock((total - done) / rate) : "--:--");
        } else if (done < total) {
            s.append(" stopped early");
        }
        for (Map.Entry<String, String> field : fields.entrySet()) {
            s.append(' ').append(field.getKey()).append('=').append(field.getValue());
        }
        return s.toString();
    }

    /** {@code m:ss} below an hour, {@code h:mm:ss} above. */
    static String clock(double seconds) {
        long total = (long) Math.floor(seconds);
        long h = total / 3600;
        long m = (total % 3600) / 60;
        long s = total % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s) : String.format(Locale.ROOT, "%d:%02d", m, s);
    }

    /** Four significant digits without trailing zeros: 0.31, 1.84, 1234, 1.235e+05, 1e-05. */
    static String compact(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return Double.isNaN(value) ? "NaN" : (value > 0 ? "inf" : "-inf");
        }
        if (value == 0) {
            return "0";
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 1e-4 && magnitude < 1e5) {
            int decimals = Math.max(0, 3 - (int) Math.floor(Math.log10(magnitude)));
            return stripZeros(String.format(Locale.ROOT, "%." + decimals + "f", value));
        }
        String scientific = String.format(Locale.ROOT, "%.3e", value);
        int e = scientific.indexOf('e');
        return stripZeros(scientific.substring(0, e)) + scientific.substring(e);
    }

    private static String stripZeros(String number) {
        if (!number.contains(".")) {
            return number;
        }
        String stripped = number.replaceAll("0+$", "");
        return stripped.endsWith(".") ? stripped.substring(0, stripped.length() - 1) : stripped;
    }

    /** Options of a {@link ProgressBar}. */
    public static final class Builder {
        private final String label;
        private final long total;
        private String unit = "it";
        private PrintStream out = System.err;
        private boolean interactive = System.console() != null;
        private Duration logInterval = Duration.ofSeconds(30);
        private Duration redrawInterval = Duration.ofMillis(200);
        private LongSupplier nanoClock = System::nanoTime;

        private Builder(String label, long total) {
            if (label == null || label.isBlank()) {
                throw new IllegalArgumentException("a progress bar needs a non-blank label, e.g. \"train\"");
            }
            if (total <= 0) {
                throw new IllegalArgumentException(label + ": total must be positive, got " + total);
            }
            this.label = label;
            this.total = total;
        }

        /** Unit of the rate, e.g. "round" for "12.5 round/s"; default "it". */
        public Builder unit(String newUnit) {
            if (newUnit == null || newUnit.isBlank()) {
                throw new IllegalArgumentException("unit must be non-blank, e.g. \"it\" or \"round\"");
            }
            this.unit = newUnit;
            return this;
        }

        /** Where to print; default {@code System.err}. */
        public Builder output(PrintStream stream) {
            this.out = Objects.requireNonNull(stream, "output must not be null");
            return this;
        }

        /** Redraw in place ({@code true}) or log lines; default: whether a console is attached. */
        public Builder interactive(boolean inPlace) {
            this.interactive = inPlace;
            return this;
        }

        /** Least time between two logged lines when not interactive; default 30 s. */
        public Builder logInterval(Duration interval) {
            this.logInterval = checkInterval(interval, "logInterval");
            return this;
        }

        /** Least time between two redraws on a terminal; default 200 ms. */
        public Builder redrawInterval(Duration interval) {
            this.redrawInterval = checkInterval(interval, "redrawInterval");
            return this;
        }

        /** Source of {@link System#nanoTime()}-like readings (tests use a fake clock). */
        public Builder clock(LongSupplier nanoTime) {
            this.nanoClock = Objects.requireNonNull(nanoTime, "clock must not be null");
            return this;
        }

        private static Duration checkInterval(Duration interval, String name) {
            if (interval == null || interval.isNegative()) {
                throw new IllegalArgumentException(name + " must be a non-negative duration, got " + interval);
            }
            return interval;
        }

        public ProgressBar build() {
            return new ProgressBar(this);
        }
    }
}
