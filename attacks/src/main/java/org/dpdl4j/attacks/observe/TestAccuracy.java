package org.dpdl4j.attacks.observe;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.LabeledData;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Test accuracy of a model given by its flattened parameters, recorded with every case. */
final class TestAccuracy {
    private TestAccuracy() {
    }

    /** Fraction of the test set the template network, loaded with {@code params}, classifies correctly. */
    static double of(MultiLayerNetwork template, INDArray params, LabeledData test) {
        MultiLayerNetwork net = template.clone();
        net.setParams(params.dup().reshape(1, net.numParams()).castTo(net.params().dataType()));
        INDArray predicted = net.output(test.features().castTo(net.params().dataType()), false).argMax(1);
        INDArray truth = Nd4j.createFromArray(test.labels()).castTo(predicted.dataType());
        return predicted.eq(truth).castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).meanNumber().doubleValue();
    }
}
