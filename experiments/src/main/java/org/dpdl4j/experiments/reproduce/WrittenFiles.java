package org.dpdl4j.experiments.reproduce;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The files a reproduction writes into its output directory, recorded as their paths are asked for, so that the line
 * that lists them names every one (an output directory may also hold files the reproduction did not write).
 */
final class WrittenFiles {
    private final Path dir;
    private final Set<String> names = new LinkedHashSet<>();

    WrittenFiles(Path dir) {
        this.dir = dir;
    }

    /** The path of a file about to be written, recorded. */
    synchronized Path file(String name) {
        names.add(name);
        return dir.resolve(name);
    }

    /** The names of the files recorded so far, in the order they were first asked for. */
    synchronized List<String> names() {
        return List.copyOf(names);
    }

    /** "Results: DIR (a.csv, b.png, ...)". */
    synchronized String line() {
        return "Results: " + dir.toAbsolutePath() + " (" + String.join(", ", names) + ")";
    }
}
