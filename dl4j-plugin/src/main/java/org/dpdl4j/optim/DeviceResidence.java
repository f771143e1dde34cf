package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Where a network's current parameters and updater state are while a {@link ResidentTraining} engine trains it. After
 * a step the device holds them and the network's own arrays are behind; {@link #readParameters} and {@link #handOut}
 * copy them back when something is about to read them. Arrays handed out to code that may also write them (the
 * network given to the caller, a restored checkpoint) are copied to the device again before the next step, so that
 * such writes count; listeners and observers read during a step and do not cause that copy.
 */
final class DeviceResidence {
    private final ResidentTraining engine;
    private final MultiLayerNetwork net;
    private final DeviceUpdater updater;
    /** The device has steps the network's parameters do not. */
    private boolean parametersBehind;
    /** The device has steps the network's updater state does not. */
    private boolean stateBehind;
    /** The network's arrays may have changed since the device took them (or it never did). */
    private boolean deviceBehind = true;

    DeviceResidence(ResidentTraining engine, MultiLayerNetwork net, DeviceUpdater updater) {
        this.engine = engine;
        this.net = net;
        this.updater = updater;
    }

    ResidentTraining engine() {
        return engine;
    }

    DeviceUpdater updater() {
        return updater;
    }

    /** Before a step: the device takes the network's arrays again if they were handed out since it last did. */
    void beforeStep() {
        if (deviceBehind) {
            engine.load(net.params(), updaterState(), updater);
            deviceBehind = false;
        }
    }

    /** After a step on the device: the network's arrays are behind. */
    void stepped() {
        parametersBehind = true;
        stateBehind = updater.stateLength() > 0;
    }

    /** Brings the network's parameters up to date for readers that do not write them (listeners, observers). */
    void readParameters() {
        if (parametersBehind) {
            engine.readParameters(net.params());
            parametersBehind = false;
        }
    }

    /**
     * Brings the network's parameters and updater state up to date for code that may read and write them; the device
     * takes them again before the next step.
     */
    void handOut() {
        readParameters();
        if (stateBehind) {
            engine.readUpdaterState(updaterState());
            stateBehind = false;
        }
        deviceBehind = true;
    }

    /** The released gradient of the last step, into the network's gradient view (for listeners and observers). */
    void readGradient(INDArray gradientView) {
        engine.readGradient(gradientView);
    }

    private INDArray updaterState() {
        return updater.stateLength() == 0 ? null : net.getUpdater().getStateViewArray();
    }
}
