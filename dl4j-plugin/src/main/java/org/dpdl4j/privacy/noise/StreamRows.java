package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Checks of the party ids that name the rows of a partial draw. */
final class StreamRows {
    private StreamRows() {
    }

    /**
     * The ids, after checking that there is one per row and that they increase (a partial draw walks the streams in
     * order, so an id out of order could not be reached).
     */
    static int[] checked(int[] ids, INDArray rows, String what) {
        if (rows.rank() != 2 || ids.length != rows.size(0)) {
            throw new IllegalArgumentException("a draw for " + ids.length + " " + what + "s needs a [" + ids.length
                    + ", p] array, got " + java.util.Arrays.toString(rows.shape()));
        }
        for (int r = 0; r < ids.length; r++) {
            if (ids[r] < 0 || r > 0 && ids[r] <= ids[r - 1]) {
                throw new IllegalArgumentException(what + " ids of a partial draw must be >= 0 and increasing, got "
                        + java.util.Arrays.toString(ids));
            }
        }
        return ids;
    }
}
