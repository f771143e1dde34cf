package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

import java.lang.ref.WeakReference;
import java.util.Map;

/**
 * The range of one layer's parameters in a network's flattened parameter vector, and views of that range keyed and
 * shaped as DL4J's parameter initializer shapes them ({@code "W"}, {@code "b"}, ...). The same layout serves the
 * parameters and the gradient; the views of the last few arrays asked for are kept, because a trainer passes the
 * same parameter and gradient arrays every step and building views costs more than a small layer's arithmetic.
 */
public final class ParameterSlots {
    private static final int CACHED = 4;

    private record Entry(WeakReference<INDArray> array, Map<String, INDArray> views) {
    }

    private final NeuralNetConfiguration configuration;
    private final long offset;
    private final long count;
    private final Entry[] entries = new Entry[CACHED];
    private int next;

    /**
     * @param configuration the layer's configuration (its initializer knows the layout)
     * @param offset        first entry of the layer in the flattened vector
     * @param count         number of parameters of the layer
     */
    public ParameterSlots(NeuralNetConfiguration configuration, long offset, long count) {
        if (offset < 0 || count < 0) {
            throw new IllegalArgumentException("parameter offset and count must be >= 0, got " + offset + " and " + count);
        }
        this.configuration = configuration;
        this.offset = offset;
        this.count = count;
    }

    public long offset() {
        return offset;
    }

    public long count() {
        return count;
    }

    /**
     * The layer's views of {@code flat} (a contiguous vector laid out like {@code net.params()}).
     *
     * @throws IllegalArgumentException if the vector is too short for this layer
     */
    public synchronized Map<String, INDArray> of(INDArray flat) {
        for (Entry e : entries) {
            if (e != null && e.array().get() == flat) {
                return e.views();
            }
        }
        if (flat.length() < offset + count) {
            throw new IllegalArgumentException("a layer's parameters are entries " + offset + " to " + (offset + count)
                    + " of the flattened vector, which has only " + flat.length() + "; pass a vector laid out like net.params()");
        }
        Map<String, INDArray> views;
        try (MemoryWorkspace ignored = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
            // enforceView: a copy would silently detach the gradient written through these views from the caller's.
            INDArray vector = flat.reshape(flat.ordering(), true, flat.length());
            INDArray slice = vector.get(NDArrayIndex.interval(offset, offset + count));
            views = Map.copyOf(configuration.getLayer().initializer().getGradientsFromFlattened(configuration, slice));
        }
        entries[next] = new Entry(new WeakReference<>(flat), views);
        next = (next + 1) % CACHED;
        return views;
    }
}
