package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.graph.ElementWiseVertex;
import org.deeplearning4j.nn.conf.graph.L2NormalizeVertex;
import org.deeplearning4j.nn.conf.graph.L2Vertex;
import org.deeplearning4j.nn.conf.graph.MergeVertex;
import org.deeplearning4j.nn.conf.graph.PreprocessorVertex;
import org.deeplearning4j.nn.conf.graph.ScaleVertex;
import org.deeplearning4j.nn.conf.graph.ShiftVertex;
import org.deeplearning4j.nn.conf.graph.SubsetVertex;
import org.deeplearning4j.nn.graph.vertex.GraphVertex;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Set;

/**
 * A vertex of a {@code ComputationGraph} without parameters that combines its inputs example by example (merge,
 * element-wise operations, subsets, scaling, shifting, L2 normalisation and distance, preprocessors): forward and
 * backward passes are DL4J's own. Vertices that move data across the batch dimension (stack, unstack, reshape) are
 * not among them.
 */
final class VertexStage {
    /** The vertex configurations that act on each example on its own. */
    static final Set<Class<? extends org.deeplearning4j.nn.conf.graph.GraphVertex>> PER_EXAMPLE = Set.of(
            MergeVertex.class, ElementWiseVertex.class, SubsetVertex.class, PreprocessorVertex.class, ScaleVertex.class,
            ShiftVertex.class, L2NormalizeVertex.class, L2Vertex.class);

    private final GraphVertex vertex;

    /**
     * Why a vertex configuration cannot be clipped per example, or {@code null} when it can: its type is not one of
     * {@link #PER_EXAMPLE}, or it is configured to act along the batch dimension (a merge along axis 0, an L2
     * normalisation over dimension 0).
     */
    static String refusal(org.deeplearning4j.nn.conf.graph.GraphVertex conf) {
        if (!PER_EXAMPLE.contains(conf.getClass())) {
            return "vertex type " + conf.getClass().getSimpleName() + " is not supported by per-example clipping";
        }
        if (conf instanceof MergeVertex merge && merge.getMergeAxis() == 0) {
            return "this merge concatenates along dimension 0, the batch, so it mixes examples";
        }
        if (conf instanceof L2NormalizeVertex l2 && l2.getDimension() != null
                && java.util.Arrays.stream(l2.getDimension()).anyMatch(d -> d == 0)) {
            return "this L2 normalisation reduces over dimension 0, the batch, so it mixes examples";
        }
        return null;
    }

    VertexStage(GraphVertex vertex) {
        this.vertex = vertex;
    }

    INDArray forward(INDArray[] inputs) {
        vertex.setInputs(inputs);
        return vertex.doForward(true, LayerWorkspaceMgr.noWorkspaces());
    }

    INDArray[] backward(INDArray epsilon) {
        vertex.setEpsilon(epsilon);
        return vertex.doBackward(false, LayerWorkspaceMgr.noWorkspaces()).getSecond();
    }

    void clear() {
        vertex.clear();
    }
}
