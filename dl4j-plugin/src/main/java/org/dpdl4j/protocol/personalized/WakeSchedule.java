package org.dpdl4j.protocol.personalized;

import java.util.random.RandomGenerator;

/**
 * The asynchronous clock of spec 6.1: every agent has a rate-1 Poisson clock, which is the same as one global clock
 * whose every tick wakes a uniformly random agent. The schedule is drawn before a run, independently of the data, so
 * each agent's wake-ups (and with them its privacy budget per release) are known in advance.
 */
public final class WakeSchedule {
    private WakeSchedule() {
    }

    /** The agent woken at each of {@code ticks} ticks. */
    public static int[] draw(int agents, long ticks, RandomGenerator random) {
        requireClock(agents, ticks);
        int[] schedule = new int[(int) ticks];
        for (int t = 0; t < schedule.length; t++) {
            schedule[t] = random.nextInt(agents);
        }
        return schedule;
    }

    /** The checks {@link #draw} makes, for a caller that must refuse what it refuses without drawing (pricing). */
    static void requireClock(int agents, long ticks) {
        if (agents < 1) {
            throw new IllegalArgumentException("the clock needs at least one agent, got " + agents);
        }
        if (ticks < 1 || ticks > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the number of ticks must lie in 1..2^31-1, got " + ticks);
        }
    }

    /** The ticks at which {@code agent} wakes, in order. */
    public static long[] ticksOf(int[] schedule, int agent) {
        return java.util.stream.IntStream.range(0, schedule.length).filter(t -> schedule[t] == agent).asLongStream().toArray();
    }
}
