package org.dpdl4j.cuda.engine;

import org.bytedeco.javacpp.FloatPointer;

import java.util.Arrays;

/**
 * The engine's arithmetic in plain Java on the CPU: {@link JavaKernels} mirror the CUDA kernels operation by operation,
 * {@link JavaBlas} is the textbook column-major product, {@link JavaConvolutions} the textbook convolution and pooling. It needs no GPU and no ND4J, so the tests run the whole engine
 * with it, and the device check compares the GPU with it. Slow (naive products): for checks, not for training.
 *
 * <p>Where a GPU would fail or read garbage, it says so as the GPU cannot: new arrays hold NaN (device memory comes
 * uninitialised, so a read before a write shows in the results), and freeing a part of an allocation or an allocation
 * twice is refused (cudaFree would fail, or free another array that took the same address).
 */
public final class JavaBackend implements Backend {
    private final Blas blas = new JavaBlas();
    private final Kernels kernels = new JavaKernels();
    private final Convolutions convolutions = new JavaConvolutions();
    /** The allocations freed so far, by identity (arrays do not override equals), held weakly: a record, not a leak. */
    private final java.util.Set<float[]> freed = java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>());

    @Override
    public DeviceArray allocate(long length) {
        if (length < 0 || length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the Java backend holds arrays of up to 2^31-9 floats, asked for " + length);
        }
        float[] data = new float[(int) length];
        Arrays.fill(data, Float.NaN);
        return new JavaArray(data, 0, (int) length);
    }

    @Override
    public void free(DeviceArray array) {
        JavaArray a = JavaArray.of(array);
        if (a.offset() != 0 || a.size() != a.data().length) {
            throw new IllegalArgumentException("free takes a whole allocation, got a slice of " + a.size() + " floats at "
                    + a.offset() + " of " + a.data().length);
        }
        synchronized (freed) {
            if (!freed.add(a.data())) {
                throw new IllegalStateException("an array of " + a.size() + " floats was freed twice");
            }
        }
    }

    @Override
    public void upload(float[] src, int offset, DeviceArray dst) {
        JavaArray d = JavaArray.of(dst);
        System.arraycopy(src, offset, d.data(), d.offset(), d.size());
    }

    @Override
    public void upload(FloatPointer src, DeviceArray dst) {
        JavaArray d = JavaArray.of(dst);
        src.get(d.data(), d.offset(), d.size());
    }

    @Override
    public void download(DeviceArray src, float[] dst, int offset) {
        JavaArray s = JavaArray.of(src);
        System.arraycopy(s.data(), s.offset(), dst, offset, s.size());
    }

    @Override
    public void download(DeviceArray src, FloatPointer dst) {
        JavaArray s = JavaArray.of(src);
        dst.put(s.data(), s.offset(), s.size());
    }

    @Override
    public void fill(DeviceArray array, float value) {
        JavaArray a = JavaArray.of(array);
        Arrays.fill(a.data(), a.offset(), a.offset() + a.size(), value);
    }

    @Override
    public Blas blas() {
        return blas;
    }

    @Override
    public Kernels kernels() {
        return kernels;
    }

    @Override
    public Convolutions convolutions() {
        return convolutions;
    }

    @Override
    public void synchronize() {
    }

    @Override
    public String describe() {
        return "Java reference (CPU)";
    }

    @Override
    public void close() {
    }
}
