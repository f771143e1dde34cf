package org.dpdl4j.data.covtype;

import java.util.Objects;

/**
 * How to read a covtype CSV file.
 *
 * @param layout      the column layout of the file
 * @param task        7-class or cover type 2 against the rest
 * @param minMaxScale whether to scale each feature to [0, 1] by its minimum and maximum over the
 *                    file (only for {@link CovtypeLayout#UCI_RAW}; the other layouts are scaled already)
 */
public record CovtypeOptions(CovtypeLayout layout, CovtypeTask task, boolean minMaxScale) {
    public CovtypeOptions {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(task, "task");
        if (minMaxScale && layout != CovtypeLayout.UCI_RAW) {
            throw new IllegalArgumentException("layout " + layout + " is already scaled to [0, 1]; "
                    + "min-max scaling applies only to UCI_RAW");
        }
        if (layout.binaryLabels() && task != CovtypeTask.TYPE2_VS_REST) {
            throw new IllegalArgumentException("layout " + layout + " holds only the binary labels 1 / 2 "
                    + "(cover type 2 or not), so it supports only task TYPE2_VS_REST, not " + task);
        }
    }

    /** The layout's natural options: min-max scaling on for the raw UCI file, off otherwise. */
    public static CovtypeOptions of(CovtypeLayout layout, CovtypeTask task) {
        return new CovtypeOptions(layout, task, layout == CovtypeLayout.UCI_RAW);
    }
}
