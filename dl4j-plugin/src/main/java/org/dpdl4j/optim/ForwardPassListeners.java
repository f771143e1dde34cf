package org.dpdl4j.optim;

import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.deeplearning4j.optimize.api.TrainingListener;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The listeners that read a step's activations. The private step never computes the activations DL4J's
 * {@code onForwardPass} hands out (its batched pass keeps other quantities), so announcing them costs one more
 * forward pass per step: about half a step for a CNN. A listener that inherits {@link BaseTrainingListener}'s empty
 * {@code onForwardPass} (score printers, parameter averages and most others) would discard them, so it is not given
 * that pass; a listener that overrides either {@code onForwardPass}, or implements {@link TrainingListener} directly,
 * is.
 */
final class ForwardPassListeners {
    private static final ClassValue<Boolean> READS_ACTIVATIONS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            if (!BaseTrainingListener.class.isAssignableFrom(type)) {
                return true;
            }
            return !declaredByBase(type, List.class) || !declaredByBase(type, Map.class);
        }
    };

    private ForwardPassListeners() {
    }

    /** The listeners among {@code listeners} that are given the activations of a step. */
    static List<TrainingListener> of(Collection<TrainingListener> listeners) {
        return listeners.stream().filter(l -> READS_ACTIVATIONS.get(l.getClass())).toList();
    }

    private static boolean declaredByBase(Class<?> type, Class<?> activations) {
        try {
            return type.getMethod("onForwardPass", Model.class, activations).getDeclaringClass() == BaseTrainingListener.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("DL4J's TrainingListener has no onForwardPass(Model, "
                    + activations.getSimpleName() + "): this DL4J version is not supported", e);
        }
    }
}
