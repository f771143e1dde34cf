package org.dpdl4j.optim;

import org.deeplearning4j.optimize.api.TrainingListener;
import org.deeplearning4j.optimize.listeners.CollectScoresIterationListener;
import org.deeplearning4j.optimize.listeners.CollectScoresListener;
import org.deeplearning4j.optimize.listeners.PerformanceListener;
import org.deeplearning4j.optimize.listeners.ScoreIterationListener;
import org.deeplearning4j.optimize.listeners.TimeIterationListener;

import java.util.Collection;
import java.util.Set;

/**
 * The listeners that may read a network's parameters or gradient when called. A device engine that keeps the
 * parameters in its memory copies them back before calling such a listener; DL4J's score, time and performance
 * listeners read the score and the input only (checked in their bytecode for 1.0.0-M2.1), so they cost no copy. Any
 * other listener, subclasses of those included, is taken to read.
 */
final class ParameterReadingListeners {
    private static final Set<Class<?>> READ_NO_PARAMETERS = Set.of(ScoreIterationListener.class,
            TimeIterationListener.class, CollectScoresIterationListener.class, CollectScoresListener.class,
            PerformanceListener.class);

    private ParameterReadingListeners() {
    }

    /** Whether any of {@code listeners} may read the parameters or the gradient. */
    static boolean any(Collection<TrainingListener> listeners) {
        for (TrainingListener l : listeners) {
            if (!READ_NO_PARAMETERS.contains(l.getClass())) {
                return true;
            }
        }
        return false;
    }
}
