package org.dpdl4j.runtime;

/** A learning-rate schedule over rounds t = 0, 1, ... (serializable, to travel to the workers of a cluster). */
public sealed interface LearningRate extends java.io.Serializable {

    /** The rate at round t. */
    double at(long t);

    /** The same schedule, starting at {@code rate} at round 0 (exactly). */
    LearningRate startingAt(double rate);

    /** The same rate at every round. */
    record Constant(double rate) implements LearningRate {
        public Constant {
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("learning rate must be a positive finite number, got " + rate);
            }
        }

        @Override
        public double at(long t) {
            return rate;
        }

        @Override
        public Constant startingAt(double newRate) {
            return new Constant(newRate);
        }
    }

    /** {@code initial / (1 + t / timeScale)}: the decay of the Decor reference scripts (time scale 5000). */
    record InverseTime(double initial, double timeScale) implements LearningRate {
        public InverseTime {
            if (!(initial > 0) || Double.isInfinite(initial)) {
                throw new IllegalArgumentException("initial learning rate must be a positive finite number, got " + initial);
            }
            if (!(timeScale > 0)) {
                throw new IllegalArgumentException("time scale must be > 0, got " + timeScale);
            }
        }

        @Override
        public double at(long t) {
            return initial / (1.0 + t / timeScale);
        }

        @Override
        public InverseTime startingAt(double rate) {
            return new InverseTime(rate, timeScale);
        }
    }
}
