package org.dpdl4j.cuda.dl4j;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.optim.DeviceNodeModels;

/**
 * Blocks' devices on the engine's reference backend for tests of runs on blocks: records which block indices opened
 * models and counts the calls of one of their methods (a round's work), so that a test sees the blocks really computed
 * on their devices.
 */
final class ReferenceBlockDevices implements BlockDevice {
    private static final long serialVersionUID = 1L;
    private final String counted;
    private final transient Set<Integer> opened = ConcurrentHashMap.newKeySet();
    private final transient AtomicInteger calls = new AtomicInteger();

    /** Devices whose models count their calls of the {@link DeviceNodeModels} method named {@code counted}. */
    ReferenceBlockDevices(String counted) {
        this.counted = counted;
    }

    @Override
    public DeviceNodeModels open(org.dpdl4j.optim.DenseNetworkSpec spec, int nodes, int block) {
        opened.add(block);
        DeviceNodeModels models = new CudaNodeModels(spec, nodes, new JavaBackend(), true);
        return (DeviceNodeModels) Proxy.newProxyInstance(ReferenceBlockDevices.class.getClassLoader(),
                new Class<?>[]{DeviceNodeModels.class}, (proxy, method, args) -> {
                    if (method.getName().equals(counted)) {
                        calls.incrementAndGet();
                    }
                    try {
                        return method.invoke(models, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The block indices that opened models. */
    Set<Integer> opened() {
        return Set.copyOf(opened);
    }

    /** How many times the opened models' counted method ran, all blocks together. */
    int calls() {
        return calls.get();
    }
}
