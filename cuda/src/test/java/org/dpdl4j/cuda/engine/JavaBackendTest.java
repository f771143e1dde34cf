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

    /** Models whose arrays run out of device memory partway free the arrays allocated before: nothing is lost. */
    @Test
    void stackedModelsThatCannotAllocateEverythingFreeWhatTheyAllocated() {
        JavaBackend real = new JavaBackend();
        java.util.List<Object> allocated = new java.util.ArrayList<>();
        java.util.List<Object> freed = new java.util.ArrayList<>();
        Backend failing = (Backend) java.lang.reflect.Proxy.newProxyInstance(Backend.class.getClassLoader(),
                new Class<?>[]{Backend.class}, (proxy, method, args) -> {
                    if (method.getName().equals("allocate") && allocated.size() == 6) {
                        throw new IllegalStateException("cudaMalloc: out of memory");
                    }
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("allocate")) {
                        allocated.add(result);
                    } else if (method.getName().equals("free")) {
                        freed.add(args[0]);
                    }
                    return result;
                });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new StackedDenseModels(failing,
                DenseModel.stacked(new int[]{5, 4, 3}, Activation.TANH, OutputLoss.softmaxCrossEntropy(1e-10)), 3));
        assertTrue(e.getMessage().contains("out of memory"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertEquals(6, allocated.size());
        org.junit.jupiter.api.Assertions.assertEquals(allocated, freed, "every array allocated before the failure is freed");
    }
}
