package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.DlgLeNetModel;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.ModelOptions;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

/** Oracle 2: the iDLG label equals the true label for 100 random MNIST images on the sigmoid LeNet. */
class IdlgLabelTest {

    @Test
    void labelsOfOneHundredRandomImages() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        MultiLayerNetwork lenet = DlgLeNetModel.network(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                ModelOptions.defaults());
        TargetNetwork target = TargetNetwork.of(lenet);
        Random random = new Random(2024);
        int correct = 0;
        for (int k = 0; k < 100; k++) {
            int row = random.nextInt(mnist.size());
            var truth = MnistTestSet.truth(mnist, new int[] {row}, InputNormalization.NONE, DataType.FLOAT);
            // Alternate the adversary: a released gradient (scale 1) and a FedAvg update (scale -lr).
            AttackCase c = k % 2 == 0 ? AttackModels.centralCase(lenet, truth, 0.0)
                    : AttackModels.fedAvgCase(lenet, truth, 0.1);
            int label = LabelRecovery.recover(target, c.gradientEstimate(target));
            correct += label == mnist.label(row) ? 1 : 0;
        }
        assertEquals(100, correct, "iDLG labels correct out of 100");
    }
}
