package org.dpdl4j.cuda.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reference backend fails where a GPU would, so the tests that run on it see what a GPU run would. */
class JavaBackendTest {

    @Test
    void newArraysHoldNoValuesYet() {
        float[] read = new float[5];
        JavaBackend backend = new JavaBackend();
        backend.download(backend.allocate(5), read, 0);
        for (float v : read) {
            assertTrue(Float.isNaN(v), "device memory comes uninitialised: NaN here");
        }
    }

    @Test
    void freeingAPartOrTwiceIsRefused() {
        JavaBackend backend = new JavaBackend();
        DeviceArray a = backend.allocate(8);
        assertThrows(IllegalArgumentException.class, () -> backend.free(a.slice(2, 4)));
        backend.free(a);
        assertThrows(IllegalStateException.class, () -> backend.free(a));
    }

    @Test
    void stackedModelsCloseOnce() {
        StackedDenseModels models = new StackedDenseModels(new JavaBackend(), DenseModel.stacked(new int[]{5, 4, 3},
                Activation.TANH, OutputLoss.softmaxCrossEntropy(1e-10)), 3);
        models.close();
        models.close();   // frees nothing the second time (the backend would refuse a second free)
    }
}
