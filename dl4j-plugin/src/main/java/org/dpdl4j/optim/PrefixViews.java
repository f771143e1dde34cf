package org.dpdl4j.optim;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

import java.util.HashMap;
import java.util.Map;

/**
 * A vector kept outside any workspace and handed out as a view of its first n elements, one view made per length
 * and reused: a step's per-example results need an array of the batch's size, and creating one (or a view) costs
 * a native allocation each time, while Poisson batch sizes keep repeating. The vector grows when a longer one is
 * asked for. What it hands out is overwritten by the next request of the same length.
 */
final class PrefixViews {
    private INDArray whole;
    private final Map<Long, INDArray> views = new HashMap<>();

    /** A rank-1 view of n elements of the given type (contents left from earlier use). */
    INDArray first(DataType type, long n) {
        try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
            if (whole == null || whole.length() < n || whole.dataType() != type) {
                whole = Nd4j.create(type, Math.max(n, whole == null ? 1 : 2 * whole.length()));
                views.clear();
            }
            return views.computeIfAbsent(n, len -> whole.length() == len ? whole : whole.get(NDArrayIndex.interval(0, len)));
        }
    }
}
