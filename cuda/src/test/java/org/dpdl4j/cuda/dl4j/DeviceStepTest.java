package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.check.NoiseMoments;
import org.dpdl4j.cuda.engine.DenseDpStep;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.cuda.engine.StepNoise;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DpModelValidator;
import org.dpdl4j.optim.DpOptimizer;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's whole private step on the device side - clipped sum, noise copied in, division by the expected batch
 * size, SGD update - equals {@link DpOptimizer}'s step on the CPU with the same noise, over several steps.
 */
class DeviceStepTest {

    @Test
    void stepsLikeTheDpOptimizer() {
        int[] sizes = {40, 24, 6};
        MultiLayerNetwork host = EngineCases.network(Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT, sizes);
        double clip = 0.5;
        double z = 1.1;
        double divisor = 20;
        double lr = 0.1;   // EngineCases' networks use Sgd(0.1)
        NoiseKey key = new NoiseKey(7, "device-step-test", 0, 0);
        DpOptimizer optimizer = new DpOptimizer(host, clip, z, divisor, SeededNoiseSource.forKey(key), ComputeDevice.CPU);
        SeededNoiseSource sameNoise = SeededNoiseSource.forKey(key);
        int p = (int) host.numParams();
        try (DenseDpStep step = new DenseDpStep(new JavaBackend(), DenseModels.of(DpModelValidator.validate(host)))) {
            step.parameters().set(host.params().toFloatVector());
            for (int s = 0; s < 3; s++) {
                INDArray x = EngineCases.features(16 + s, sizes);
                INDArray y = EngineCases.labels(LossFunction.MCXENT, 16 + s, sizes);
                optimizer.step(x, y);
                INDArray noise = Nd4j.create(DataType.FLOAT, p);
                sameNoise.writeGaussian(noise, z * clip);
                step.loadBatch(EngineCases.rowMajor(x), EngineCases.rowMajor(y), null, 16 + s);
                step.clippedSum(clip);
                step.parameters().step(new StepNoise.FromArray(noise.toFloatVector()), divisor, lr);
                float[] got = new float[p];
                step.parameters().read(got);
                INDArray expected = host.params().castTo(DataType.DOUBLE).reshape(p);
                double err = expected.sub(Nd4j.createFromArray(got).castTo(DataType.DOUBLE)).norm2Number().doubleValue()
                        / expected.norm2Number().doubleValue();
                assertTrue(err < 1e-6, "parameters after step " + s + " differ by " + err + " (relative)");
            }
        }
    }

    /**
     * Seeded Philox noise reaches the parameters at about the asked scale: the step adds it, not dropped nor rescaled by
     * more than about 12% (what 5 standard errors allow over this network's 725 draws).
     */
    @Test
    void seededPhiloxNoiseEntersTheStepAtItsStd() {
        MultiLayerNetwork net = EngineCases.network(Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT, new int[]{30, 20, 5});
        float[] draws = philoxStep(new JavaBackend(), net, 2.5f);
        assertNoiseOfStd(draws, 2.5);
    }

    /** The parameters after one step from zero with no data, learning rate -1 and divisor 1: the noise itself. */
    static float[] philoxStep(org.dpdl4j.cuda.engine.Backend backend, MultiLayerNetwork net, float std) {
        var model = DenseModels.of(DpModelValidator.validate(net));
        int p = (int) model.numParams();
        float[] out = new float[p];
        try (DenseDpStep step = new DenseDpStep(backend, model)) {
            step.parameters().set(new float[p]);
            step.loadBatch(new float[0], new float[0], null, 0);
            step.clippedSum(1.0);
            step.parameters().step(new StepNoise.SeededPhilox(99, 5, std), 1.0, -1.0);   // params := 0 + noise
            step.parameters().read(out);
        }
        return out;
    }

    /** The draws' mean and variance are those of N(0, std^2) within 5 standard errors (as the device check asks). */
    static void assertNoiseOfStd(float[] draws, double std) {
        float[] standard = new float[draws.length];
        for (int i = 0; i < draws.length; i++) {
            standard[i] = (float) (draws[i] / std);
        }
        assertTrue(NoiseMoments.excess(standard) == 0, "draws of std " + std + " are not N(0, std^2): z-score "
                + NoiseMoments.excess(standard));
    }
}
