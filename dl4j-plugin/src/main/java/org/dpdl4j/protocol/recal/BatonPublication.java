package org.dpdl4j.protocol.recal;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One publication of the relay (spec 5.3) with the active agent's state around it: what a tap on the run sees,
 * for instance an attack observer. The baton {@code (y, s)} before and after is what an eavesdropper reads on the
 * channel; {@code xOld} and {@code dualBefore} are the agent's private state, known only to an oracle attacker.
 * All arrays are copies [q, c] in double.
 *
 * @param iteration  the iteration k (0-based)
 * @param agent      the active agent i
 * @param activation K_i after this publication (1 for its first)
 * @param xOld       x_i before the step
 * @param dualBefore the agent's published dual before the step
 * @param yBefore    y received with the baton
 * @param yAfter     y passed on
 * @param sBefore    s received with the baton
 * @param sAfter     s passed on
 * @param tau        tau_i
 * @param beta       beta_i
 * @param theta      theta of the iteration (the published increment has the closed form of spec 8.5 only for 2)
 * @param noiseStd   std of the Gaussian noise per coordinate of this publication (0 for RECAL)
 */
public record BatonPublication(long iteration, int agent, long activation, INDArray xOld, INDArray dualBefore,
                               INDArray yBefore, INDArray yAfter, INDArray sBefore, INDArray sAfter, double tau,
                               double beta, double theta, double noiseStd) {

    /** {@code s+ - s}: the published dual's increment, the only part of the baton that depends on the agent's data. */
    public INDArray increment() {
        return sAfter.sub(sBefore);
    }

    /** The coefficient of {@code grad f_i(x_old)} in the increment: {@code -2 beta_i tau_i} (theta = 2). */
    public double gradientCoefficient() {
        return -2 * beta * tau;
    }
}
