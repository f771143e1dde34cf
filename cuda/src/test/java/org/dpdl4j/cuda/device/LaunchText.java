package org.dpdl4j.cuda.device;

import org.dpdl4j.cuda.engine.DeviceArray;
import org.dpdl4j.cuda.engine.Kernels;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The C call a launch of the CUDA backend's {@link CudaKernels} makes, as source text with its arguments as the launch
 * passes them (arrays by name, numbers as exact literals): the kernel emulation runs the CUDA C source on the CPU with
 * it, so that the order and values of the arguments the backend packs are tested, not only their types.
 */
public final class LaunchText {
    private LaunchText() {
    }

    /**
     * The launches {@code call} makes through the CUDA backend's kernels, in order, e.g. {@code im2col(x, cols, 2, 3,
     * ...)} (a {@link Kernels} call may take two kernels, run one after the other).
     */
    public static List<String> of(Consumer<Kernels> call) {
        Recorder r = new Recorder();
        call.accept(new CudaKernels(r));
        if (r.launches.isEmpty()) {
            throw new IllegalStateException("the call launched no kernel");
        }
        return List.copyOf(r.launches);
    }

    /** An array that stands for the C array of this name in {@link #of}'s text. */
    public static DeviceArray named(String name) {
        return new Named(name);
    }

    private record Named(String name) implements DeviceArray {
        @Override
        public long length() {
            throw new UnsupportedOperationException("a named placeholder has no length");
        }

        @Override
        public DeviceArray slice(long offset, long length) {
            throw new UnsupportedOperationException("a named placeholder cannot be sliced");
        }
    }

    private static final class Recorder implements KernelCall {
        final List<String> launches = new ArrayList<>();
        private final List<String> args = new ArrayList<>();

        @Override
        public KernelCall args() {
            args.clear();
            return this;
        }

        @Override
        public KernelCall ptr(DeviceArray a) {
            args.add(a == null ? "nullptr" : ((Named) a).name());
            return this;
        }

        @Override
        public KernelCall i32(int v) {
            args.add(Integer.toString(v));
            return this;
        }

        @Override
        public KernelCall f32(float v) {
            args.add(Float.toHexString(v).toLowerCase(Locale.ROOT) + "f");
            return this;
        }

        @Override
        public KernelCall f64(double v) {
            args.add(Double.toHexString(v).toLowerCase(Locale.ROOT));
            return this;
        }

        @Override
        public KernelCall u64(long v) {
            args.add("0x" + Long.toHexString(v) + "ull");
            return this;
        }

        @Override
        public void launch(String kernel, long work) {
            launches.add(kernel + "(" + String.join(", ", args) + ")");
        }
    }
}
