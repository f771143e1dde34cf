package org.dpdl4j.experiments.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(0);
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String output() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private ProgressBar.Builder bar(long total, boolean interactive) {
        return ProgressBar.builder("train", total).output(out).interactive(interactive).clock(now::get);
    }

    @Test
    void logModePrintsAtMostOneLinePerIntervalAndAFinalLine() {
        ProgressBar bar = bar(10, false).logInterval(Duration.ofSeconds(10)).build();
        now.set(5 * SECOND);
        bar.field("loss", 0.5).step();
        assertEquals("", output(), "nothing before the first interval");
        now.set(10 * SECOND);
        bar.step();
        assertEquals("train 2/10  20.0% 0.2 it/s elapsed 0:10 ETA 0:40 loss=0.5\n", output());
        now.set(12 * SECOND);
        bar.step(3);
        assertEquals(1, output().lines().count(), "throttled");
        now.set(20 * SECOND);
        bar.field("loss", 0.25).field("eps", 1.8412345).field("node", 3).field("phase", "gossip").set(10);
        bar.finish();
        bar.finish();
        List<String> lines = output().lines().toList();
        assertEquals(List.of(
                "train 2/10  20.0% 0.2 it/s elapsed 0:10 ETA 0:40 loss=0.5",
                "train 10/10 100.0% 0.5 it/s elapsed 0:20 ETA 0:00 loss=0.25 eps=1.841 node=3 phase=gossip",
                "train 10/10 100.0% 0.5 it/s elapsed 0:20 loss=0.25 eps=1.841 node=3 phase=gossip"), lines);
    }

    @Test
    void qualifiedFieldsSayWhatEachValueIsFor() {
        ProgressBar bar = bar(3, false).build();
        bar.field("CDP", 0.0827612, "eps=10").field("Decor-ring", 14.6597, "eps=5").step(3);
        bar.finish();
        assertEquals("train 3/3 100.0% - it/s elapsed 0:00 CDP=0.08276(eps=10) Decor-ring=14.66(eps=5)",
                output().lines().reduce((a, b) -> b).orElseThrow());
    }

    @Test
    void terminalModeRedrawsInPlaceAndEndsWithANewline() {
        ProgressBar bar = bar(4, true).redrawInterval(Duration.ofSeconds(1)).unit("round").build();
        now.set(2 * SECOND);
        bar.field("accuracy", 0.123456).step();
        now.set(2 * SECOND + 1);
        bar.step();
        now.set(3 * SECOND);
        bar.step();
        now.set(3600 * SECOND);
        bar.finish();
        String text = output();
        assertTrue(text.startsWith("\r"), text);
        assertTrue(text.endsWith("\n") && text.indexOf('\n') == text.length() - 1, "one newline, at the end");
        List<String> draws = new ArrayList<>(List.of(text.split("\r", -1)));
        draws.remove(0);
        assertEquals(4, draws.size(), "start, two redraws, final: " + draws);
        assertEquals("train [........................] 0/4   0.0% - round/s elapsed 0:00 ETA --:--", draws.get(0));
        assertEquals("train [######..................] 1/4  25.0% 0.5 round/s elapsed 0:02 ETA 0:06 accuracy=0.1235",
                draws.get(1));
        // Two characters shorter than the previous draw, so two spaces blank the rest of it.
        assertEquals("train [##################......] 3/4  75.0% 1 round/s elapsed 0:03 ETA 0:01 accuracy=0.1235  ",
                draws.get(2));
        String last = draws.get(3);
        String finalLine = "train [##################......] 3/4  75.0% 0.0008333 round/s elapsed 1:00:00 stopped early "
                + "accuracy=0.1235";
        assertEquals(finalLine, last.stripTrailing());
        assertTrue(last.endsWith("\n"));
    }

    @Test
    void shorterRedrawsBlankTheRestOfTheLongerLine() {
        ProgressBar bar = bar(10, true).redrawInterval(Duration.ZERO).build();
        bar.field("phase", "a-very-long-phase-name").step();
        bar.field("phase", "x").step();
        String[] draws = output().split("\r", -1);
        String longer = draws[2];
        String shorter = draws[3];
        assertEquals(longer.length(), shorter.length(), "padded to the previous length");
        assertTrue(shorter.endsWith(" "));
    }

    @Test
    void misuseIsReported() {
        ProgressBar bar = bar(3, false).build();
        bar.step(3);
        IllegalStateException over = assertThrows(IllegalStateException.class, bar::step);
        assertTrue(over.getMessage().contains("step 4 exceeds the total of 3"), over.getMessage());
        assertThrows(IllegalArgumentException.class, () -> bar.set(1));
        assertThrows(IllegalArgumentException.class, () -> bar.step(-1));
        assertThrows(IllegalArgumentException.class, () -> bar.field("two words", 1.0));
        bar.finish();
        assertThrows(IllegalStateException.class, bar::step);
        assertThrows(IllegalArgumentException.class, () -> ProgressBar.builder("x", 0));
        assertThrows(IllegalArgumentException.class, () -> ProgressBar.builder(" ", 5));
    }

    @Test
    void compactNumbersAndClock() {
        assertEquals("0.31", ProgressBar.compact(0.31));
        assertEquals("1.84", ProgressBar.compact(1.84));
        assertEquals("1235", ProgressBar.compact(1234.6));
        assertEquals("-0.001", ProgressBar.compact(-0.001));
        assertEquals("1.235e+05", ProgressBar.compact(123456.0));
        assertEquals("1e-05", ProgressBar.compact(1e-5));
        assertEquals("NaN", ProgressBar.compact(Double.NaN));
        assertEquals("0", ProgressBar.compact(0));
        assertEquals("0:59", ProgressBar.clock(59.9));
        assertEquals("1:01:01", ProgressBar.clock(3661));
    }

    @Test
    void millionsOfStepsAreCheapAndCountedAcrossThreads() throws Exception {
        ProgressBar bar = ProgressBar.builder("bench", 4_000_000).output(out).interactive(false).build();
        long start = System.nanoTime();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 1_000_000; i++) {
                    bar.step();
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(4_000_000, bar.done());
        // about 0.4 s here: the bound only catches a step that became orders of magnitude dearer (a loaded machine may
        // preempt a lock holder), and stays under the 30 s log interval the next line relies on
        assertTrue(seconds < 25, "4 million steps took " + seconds + " s");
        assertEquals("", output(), "nothing logged within the 30 s default interval");
    }
}
