package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.dpdl4j.cuda.engine.DeviceArray;
import org.dpdl4j.cuda.engine.KernelSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Packs a kernel's arguments and launches it on a stream. cuLaunchKernel takes an array of pointers, one to each
 * argument's value; the values go into one native block of 8-byte slots, reused by every launch (the driver copies
 * the arguments when the launch is queued). The order and the C types must be those of the kernel's signature in
 * {@code dp_step.cu}: device pointers as 8 bytes, {@code int} and {@code float} as 4, {@code double} and
 * {@code unsigned long long} as 8.
 */
final class KernelLaunch implements KernelCall {
    private static final int MAX_ARGS = 16;
    /** Threads per block; every kernel is a grid-stride loop, so the grid only sets how many run at once. */
    private static final int THREADS = 128;

    private final KernelModule module;
    private final CUstream_st stream;
    private final int maxBlocks;
    private final BytePointer values = new BytePointer(8L * MAX_ARGS);
    private final ByteBuffer slots = values.asByteBuffer().order(ByteOrder.nativeOrder());
    private final LongPointer argumentPointers = new LongPointer(MAX_ARGS);
    /**
     * The same array as {@code void**}: cuLaunchKernel's overload taking a plain Pointer is declared {@code @ByPtrPtr}
     * (JavaCPP then passes the address of the pointer, one indirection too many); this one passes the array itself.
     */
    private final PointerPointer<?> kernelParams = new PointerPointer<>(argumentPointers);
    private int count;

    KernelLaunch(KernelModule module, CUstream_st stream, int multiprocessors) {
        this.module = module;
        this.stream = stream;
        // 16 blocks per multiprocessor, and never more threads than the kernels' index arithmetic allows for
        this.maxBlocks = Math.min(Math.max(1, multiprocessors) * 16, KernelSource.MAX_THREADS / THREADS);
        for (int i = 0; i < MAX_ARGS; i++) {
            argumentPointers.put(i, values.address() + 8L * i);
        }
    }

    @Override
    public KernelLaunch args() {
        count = 0;
        return this;
    }

    @Override
    public KernelLaunch ptr(DeviceArray a) {
        slots.putLong(slot(), CudaArray.addressOf(a));
        return this;
    }

    @Override
    public KernelLaunch i32(int v) {
        slots.putInt(slot(), v);
        return this;
    }

    @Override
    public KernelLaunch f32(float v) {
        slots.putFloat(slot(), v);
        return this;
    }

    @Override
    public KernelLaunch f64(double v) {
        slots.putDouble(slot(), v);
        return this;
    }

    @Override
    public KernelLaunch u64(long v) {
        slots.putLong(slot(), v);
        return this;
    }

    private int slot() {
        if (count == MAX_ARGS) {
            throw new IllegalStateException("a kernel takes at most " + MAX_ARGS + " arguments here");
        }
        return 8 * count++;
    }

    @Override
    public void launch(String name, long work) {
        if (work <= 0) {
            return;
        }
        CUfunc_st f = module.function(name);
        int blocks = (int) Math.min(maxBlocks, (work + THREADS - 1) / THREADS);
        CudaCalls.driver(cudart.cuLaunchKernel(f, blocks, 1, 1, THREADS, 1, 1, 0, stream, kernelParams,
                        (PointerPointer<?>) null),
                "cuLaunchKernel(" + name + ")");
    }
}
