package org.dpdl4j.optim;

import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.lang.ref.WeakReference;
import java.util.List;

import static org.nd4j.linalg.indexing.NDArrayIndex.interval;

/**
 * The weight matrix and bias vector of every layer as views into one flattened parameter (or gradient)
 * vector, built once per array and reused while the caller passes the same array object again (an
 * optimizer passes the same parameter and gradient arrays at every step). Creating an ND4J view costs tens
 * of microseconds, about as much as the whole layer arithmetic of a small model such as logistic regression.
 *
 * <p>Arrays are recognised by identity and held weakly, so the cache never keeps a caller's array alive.
 * Views are created outside any workspace: they share the array's buffer and stay valid as long as it does.
 */
final class LayerViews {
    private static final int SLOTS = 4;

    /** The views of one array; indexed by the layer's position in the network. */
    private record Entry(WeakReference<INDArray> array, INDArray[] weights, INDArray[] biases) {
    }

    private final List<DenseLayerSpec> layers;
    private final Entry[] entries = new Entry[SLOTS];
    private int nextSlot;

    LayerViews(List<DenseLayerSpec> layers) {
        this.layers = List.copyOf(layers);
    }

    /** Layer weights, [nIn, nOut] in 'f' order (DL4J's layout), as a view of {@code array}. */
    INDArray weights(INDArray array, DenseLayerSpec layer) {
        return entry(array).weights()[layer.index()];
    }

    /** Layer bias, [nOut], as a view of {@code array}; the layer must have a bias. */
    INDArray bias(INDArray array, DenseLayerSpec layer) {
        return entry(array).biases()[layer.index()];
    }

    private synchronized Entry entry(INDArray array) {
        for (Entry e : entries) {
            if (e != null && e.array().get() == array) {
                return e;
            }
        }
        Entry built = build(array);
        entries[nextSlot] = built;
        nextSlot = (nextSlot + 1) % SLOTS;
        return built;
    }

    private Entry build(INDArray array) {
        int size = layers.get(layers.size() - 1).index() + 1;
        INDArray[] weights = new INDArray[size];
        INDArray[] biases = new INDArray[size];
        try (MemoryWorkspace ignored = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
            INDArray flat = array.reshape(array.length());
            for (DenseLayerSpec layer : layers) {
                weights[layer.index()] = flat.get(interval(layer.weightOffset(), layer.weightOffset() + layer.weightCount()))
                        .reshape('f', layer.nIn(), layer.nOut());
                if (layer.hasBias()) {
                    biases[layer.index()] = flat.get(interval(layer.biasOffset(), layer.biasOffset() + layer.nOut()));
                }
            }
        }
        return new Entry(new WeakReference<>(array), weights, biases);
    }
}
