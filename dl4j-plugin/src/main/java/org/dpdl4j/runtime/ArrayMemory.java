package org.dpdl4j.runtime;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Returns the native memory of large temporaries as soon as they are dead. ND4J frees an array's memory only when the
 * garbage collector finds the array unreachable, and nothing makes the collector run while the heap is calm: the
 * temporaries of a large run, each as large as its models, would otherwise pile up round after round.
 */
public final class ArrayMemory {
    private ArrayMemory() {
    }

    /**
     * Frees {@code array} now, unless it cannot be freed alone (a view of another array, or an array in a workspace,
     * which goes with the workspace). The caller must hold the only reference that is still used.
     */
    public static void release(INDArray array) {
        if (array != null && array.closeable()) {
            array.close();
        }
    }
}
