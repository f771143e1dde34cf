package org.dpdl4j.optim;

import org.deeplearning4j.nn.api.Trainable;
import org.deeplearning4j.nn.conf.GradientNormalization;
import org.deeplearning4j.nn.updater.BaseMultiLayerUpdater;
import org.deeplearning4j.nn.updater.UpdaterBlock;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.regularization.Regularization;

import java.util.ArrayList;
import java.util.List;

/**
 * A network's DL4J updater applied block by block ({@link UpdaterBlock#update}: regularization, then the configured
 * {@code IUpdater} - Sgd, Adam, Nesterovs, ... - on the block's gradient view), which is what
 * {@link BaseMultiLayerUpdater#update} ends with. The rest of that method is bookkeeping that does nothing for a
 * private step: it regroups the gradient per layer, divides by the batch size (1 here: the step divides by the
 * expected batch size itself) and applies gradient normalization. Skipping it saves the views it creates on every
 * call (a few hundred microseconds, more than a whole logistic-regression step), with the same arithmetic. A block
 * without regularization goes one level further: {@code UpdaterBlock.update} would only reshape its gradient view
 * (a new view each call) and hand it to the block's {@code GradientUpdater}, so the updater gets a view made once.
 *
 * <p>Only valid when that bookkeeping is a no-op: {@link #of} returns null when a layer normalizes gradients or a
 * block belongs to layerwise pretraining, and the caller then keeps calling DL4J's full update.
 */
final class UpdaterBlocks {
    private final Object updater;
    private final Object gradientView;
    private final List<UpdaterBlock> blocks;
    /** Per block: its flat gradient view when it has no regularization (then its updater is applied directly), else null. */
    private final List<INDArray> directViews;

    private UpdaterBlocks(Object updater, Object gradientView, List<UpdaterBlock> blocks, List<INDArray> directViews) {
        this.updater = updater;
        this.gradientView = gradientView;
        this.blocks = blocks;
        this.directViews = directViews;
    }

    /**
     * The blocks of an updater, or null when applying them alone would differ from its full update. (A block
     * initialises its updater state itself on first use, as it does inside the full update.)
     */
    static UpdaterBlocks of(Object updater, Object gradientView) {
        if (!(updater instanceof BaseMultiLayerUpdater<?> multi)) {
            return null;
        }
        List<UpdaterBlock> blocks = new ArrayList<>();
        List<INDArray> directViews = new ArrayList<>();
        for (UpdaterBlock block : multi.getUpdaterBlocks()) {
            if (block.isPretrainUpdaterBlock()) {
                return null;
            }
            boolean regularized = false;
            for (UpdaterBlock.ParamState state : block.getLayersAndVariablesInBlock()) {
                Trainable layer = state.getLayer();
                if (layer.getConfig() == null) {
                    return null;
                }
                GradientNormalization normalization = layer.getConfig().getGradientNormalization();
                if (normalization != null && normalization != GradientNormalization.None) {
                    return null;
                }
                List<Regularization> regularization = layer.getConfig().getRegularizationByParam(state.getParamName());
                regularized |= regularization != null && !regularization.isEmpty();
            }
            if (block.getLayersAndVariablesInBlock().get(0).getLayer().numParams() == 0) {
                continue;   // UpdaterBlock.update returns at once for such a block
            }
            INDArray view = block.getGradientView();
            boolean direct = !regularized && block.getGradientUpdater() != null && view != null;
            blocks.add(block);
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                directViews.add(direct ? view.reshape(view.length()) : null);
            }
        }
        return new UpdaterBlocks(updater, gradientView, List.copyOf(blocks), directViews);
    }

    /**
     * Whether these are still the blocks of the network's updater and gradient array (either can be replaced, and
     * the blocks hold views of the gradient array they were built on).
     */
    boolean belongTo(Object currentUpdater, Object currentGradientView) {
        return updater == currentUpdater && gradientView == currentGradientView;
    }

    /** Applies every block, as the full update would after its bookkeeping. */
    void apply(int iteration, int epoch) {
        for (int i = 0; i < blocks.size(); i++) {
            INDArray direct = directViews.get(i);
            if (direct != null) {
                blocks.get(i).getGradientUpdater().applyUpdater(direct, iteration, epoch);
            } else {
                blocks.get(i).update(iteration, epoch);
            }
        }
    }
}
