package org.rapaio.jupyter.kernel.channels;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A replacement for the class of the same name in rapaio-jupyter-kernel 3.0.1 (unchanged up to 3.0.4), the
 * thread that polls the heartbeat, shell and control sockets. notebooks/install-kernel.sh compiles it against
 * the kernel jar and puts it before the jar on the kernel's class path, so it is the one loaded. Same public
 * API; two changes:
 * <ul>
 * <li>{@code running} is set before the thread starts. The original sets it after {@code Thread.start()}:
 *     when the new thread gets the CPU first (a few times in a hundred on a busy two-core machine) it reads
 *     {@code false}, leaves its loop and ends without a word. Each start has three such threads: without the
 *     shell's the kernel never answers {@code kernel_info} (Jupyter: "Kernel didn't respond in 60 seconds"),
 *     without the control's it ignores shutdown and interrupt requests, without the heartbeat's a front end
 *     that watches the heartbeat takes it for dead.</li>
 * <li>An exception thrown by one turn of the loop is logged and the loop goes on. In the original it ends
 *     the thread, and with it the channel, for good. The kernel binds its sockets before it creates its
 *     handler map, so a shell thread that polls at once can read Jupyter's first {@code kernel_info} request
 *     while the map is still null: a NullPointerException in {@code Channels.getHandler}, seen in about one
 *     start in twenty once the first change lets the thread poll that early. The request is then dropped, and
 *     Jupyter, which asks every second until it gets a reply, asks again.</li>
 * </ul>
 */
public final class LoopThread extends Thread {

    private static final Logger LOGGER = Logger.getLogger(LoopThread.class.getSimpleName());

    private volatile boolean running = false;
    private final long sleep;
    private final Runnable loopBody;

    public LoopThread(String name, long sleep, Runnable loopBody) {
        super(name);
        this.sleep = sleep;
        this.loopBody = loopBody;
    }

    @Override
    public void run() {
        while (running) {
            try {
                loopBody.run();
            } catch (RuntimeException e) {
                // One bad message must not take the channel down: report it and poll again. The kernel's log
                // format leaves out stack traces, so the exception and where it was thrown go in the message.
                StackTraceElement[] at = e.getStackTrace();
                LOGGER.log(Level.SEVERE, getName() + ": " + e + (at.length > 0 ? " at " + at[0] : "")
                        + "; the loop goes on", e);
            }
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                running = false;
                return;
            }
        }
    }

    @Override
    public synchronized void start() {
        // Before super.start(): the new thread may run (and read the flag) before this one goes on.
        running = true;
        super.start();
    }

    public void shutdown() {
        running = false;
    }
}
