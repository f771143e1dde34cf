package org.dpdl4j.runtime.options;

/**
 * A setting that differs between a saved run and the run resuming it.
 *
 * @param name   the option name, without dashes
 * @param saved  its text in the saved run, or null when it was not set there
 * @param now    its text now, or null when it is not set now
 * @param rule   what the change means
 */
public record SettingChange(String name, String saved, String now, ResumeRule rule) {

    /**
     * "rounds: 200 -> 400": the setting by its name, as Java code names it (a config's field); a command line names it
     * as its option ({@link #describe(String)} with {@code "--"}).
     */
    public String describe() {
        return describe("");
    }

    /** As {@link #describe()}, the name after {@code prefix}: {@code "--"} gives "--rounds: 200 -> 400" on a command line. */
    public String describe(String prefix) {
        return prefix + name + ": " + (saved == null ? "(not set)" : saved) + " -> " + (now == null ? "(not set)" : now);
    }
}
