package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.cublas.cublasContext;
import org.bytedeco.cuda.cudart.CUctx_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cublas;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.Blas;
import org.dpdl4j.cuda.engine.Convolutions;
import org.dpdl4j.cuda.engine.DeviceArray;
import org.dpdl4j.cuda.engine.Kernels;

/**
 * The engine's backend on one NVIDIA GPU: device memory, one stream on which every copy, product and kernel is queued
 * in order, cuBLAS, and the kernels NVRTC compiled for this GPU. Host copies of Java arrays go through a pinned staging
 * buffer; copies from and to other host memory (ND4J's buffers) go directly.
 *
 * <p>Open it with {@link #open()}, which refuses with the reason (what is missing, how to fix it) when the machine has no
 * usable GPU. The primary context of the GPU is made current on whichever thread calls, so one backend may be used from
 * several threads one after another (not at once).
 */
public final class CudaBackend implements Backend {
    private final CudaStatus.GpuInfo gpu;
    private final CUctx_st context = new CUctx_st();
    private final CUstream_st stream = new CUstream_st();
    private final cublasContext cublasHandle = new cublasContext();
    private final CublasBlas blas;
    private final CudaKernels kernels;
    private final String target;
    private CudnnConvolutions convolutions;
    private FloatPointer staging;
    private long stagingFloats;
    private boolean closed;
    /**
     * The backend whose GPU context this thread made current last (backends on several GPUs may share a thread); held
     * weakly, so that a thread does not keep a closed backend alive.
     */
    private static final ThreadLocal<java.lang.ref.WeakReference<CudaBackend>> BOUND = new ThreadLocal<>();
    /** One lock per GPU ordinal for {@link #reserving}. */
    private static final java.util.concurrent.ConcurrentMap<Integer, Object> MEMORY_LOCKS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private CudaBackend(CudaStatus.GpuInfo gpu) {
        this.gpu = gpu;
        BOUND.remove();   // the thread leaves the context it had: if a call below fails, no backend takes it for its own
        CudaCalls.runtime(cudart.cudaSetDevice(gpu.ordinal()), "cudaSetDevice");
        CudaCalls.runtime(cudart.cudaFree(null), "cudaFree(null) (creating the context)");
        int[] handle = new int[1];
        CudaCalls.driver(cudart.cuDeviceGet(handle, gpu.ordinal()), "cuDeviceGet");
        CudaCalls.driver(cudart.cuDevicePrimaryCtxRetain(context, handle[0]), "cuDevicePrimaryCtxRetain");
        CudaCalls.driver(cudart.cuCtxSetCurrent(context), "cuCtxSetCurrent");
        BOUND.set(new java.lang.ref.WeakReference<>(this));
        try {
            CudaCalls.runtime(cudart.cudaStreamCreateWithFlags(stream, cudart.cudaStreamNonBlocking),
                    "cudaStreamCreateWithFlags");
            CudaCalls.cublas(cublas.cublasCreate_v2(cublasHandle), "cublasCreate");
            CudaCalls.cublas(cublas.cublasSetStream_v2(cublasHandle, stream), "cublasSetStream");
            this.blas = new CublasBlas(cublasHandle);
            KernelModule module = KernelModule.forDevice(gpu);
            this.target = module.target();
            this.kernels = new CudaKernels(new KernelLaunch(module, stream, gpu.processors()));
        } catch (RuntimeException | Error e) {   // e.g. the kernels do not compile: the stream and cuBLAS handle made go
            if (!cublasHandle.isNull()) {
                cublas.cublasDestroy_v2(cublasHandle);
            }
            if (!stream.isNull()) {
                cudart.cudaStreamDestroy(stream);
            }
            throw e;
        }
    }

    /**
     * A backend on the first usable GPU.
     *
     * @throws CudaUnavailableException naming what is missing (driver, GPU, library) and the fix
     */
    public static CudaBackend open() {
        return open(0);
    }

    /**
     * A backend on the GPU of {@code slot} among the usable ones ({@link CudaStatus#gpu(int)}: slot modulo their
     * number), e.g. a block's index ({@link #onGpu} for the GPU a scheduler assigned).
     *
     * @throws CudaUnavailableException naming what is missing (driver, GPU, library) and the fix
     */
    public static CudaBackend open(int slot) {
        return new CudaBackend(usableStatus().gpu(slot));
    }

    /**
     * A backend on the usable GPU CUDA numbers {@code ordinal} (asked for with {@code --device cuda:N}, or the one a
     * scheduler assigned).
     *
     * @throws CudaUnavailableException when the machine has no usable GPU, or none of that number
     */
    public static CudaBackend onGpu(int ordinal) {
        return new CudaBackend(usableStatus().numbered(ordinal));
    }

    private static CudaStatus usableStatus() {
        CudaStatus status = CudaProbe.status();
        if (!status.usable()) {
            throw new CudaUnavailableException(status.problem());
        }
        return status;
    }

    /**
     * Runs {@code reserve} (a look at {@link #freeBytes} and the allocation it decides on) with no other backend of this
     * JVM on the same GPU reserving at the same time, so that blocks opened together on one GPU (Spark tasks in one
     * executor) each see what the others took. Processes sharing a GPU are not covered.
     */
    public <T> T reserving(java.util.function.Supplier<T> reserve) {
        synchronized (MEMORY_LOCKS.computeIfAbsent(gpu.ordinal(), d -> new Object())) {
            return reserve.get();
        }
    }

    public CudaStatus.GpuInfo gpu() {
        return gpu;
    }

    /**
     * Makes the GPU's context current on the calling thread (each thread has its own current context), unless this
     * backend made it current there last: a thread may use backends on several GPUs one after another.
     */
    private void bind() {
        if (closed) {
            throw new IllegalStateException("this CUDA backend is closed");
        }
        java.lang.ref.WeakReference<CudaBackend> last = BOUND.get();
        if (last == null || last.get() != this) {
            BOUND.remove();   // until this context is current: a failing call below must not leave another's record
            CudaCalls.runtime(cudart.cudaSetDevice(gpu.ordinal()), "cudaSetDevice");
            CudaCalls.driver(cudart.cuCtxSetCurrent(context), "cuCtxSetCurrent");
            BOUND.set(new java.lang.ref.WeakReference<>(this));
        }
    }

    @Override
    public DeviceArray allocate(long length) {
        bind();
        Pointer p = new Pointer();
        CudaCalls.runtime(cudart.cudaMalloc(p, Math.max(1, length) * Float.BYTES), "cudaMalloc(" + length + " floats)");
        return new CudaArray(p.address(), length);
    }

    @Override
    public void free(DeviceArray array) {
        bind();
        CudaCalls.runtime(cudart.cudaFree(CudaArray.of(array).pointer()), "cudaFree");
    }

    @Override
    public void upload(float[] src, int offset, DeviceArray dst) {
        bind();
        long n = dst.length();
        FloatPointer stage = staging(n);
        // the staging buffer may still feed an earlier copy: wait for the stream before overwriting it
        synchronize();
        stage.position(0).put(src, offset, (int) n);
        copy(CudaArray.of(dst).pointer(), stage, n, cudart.cudaMemcpyHostToDevice);
    }

    @Override
    public void upload(FloatPointer src, DeviceArray dst) {
        bind();
        copy(CudaArray.of(dst).pointer(), src, dst.length(), cudart.cudaMemcpyHostToDevice);
    }

    @Override
    public void download(DeviceArray src, float[] dst, int offset) {
        bind();
        long n = src.length();
        FloatPointer stage = staging(n);
        copy(stage, CudaArray.of(src).pointer(), n, cudart.cudaMemcpyDeviceToHost);
        synchronize();
        stage.position(0).get(dst, offset, (int) n);
    }

    @Override
    public void download(DeviceArray src, FloatPointer dst) {
        bind();
        copy(dst, CudaArray.of(src).pointer(), src.length(), cudart.cudaMemcpyDeviceToHost);
        synchronize();
    }

    private void copy(Pointer dst, Pointer src, long floats, int kind) {
        if (floats > 0) {
            CudaCalls.runtime(cudart.cudaMemcpyAsync(dst, src, floats * Float.BYTES, kind, stream), "cudaMemcpyAsync");
        }
    }

    @Override
    public void fill(DeviceArray array, float value) {
        bind();
        if (value == 0f && Float.floatToRawIntBits(value) == 0) {
            CudaCalls.runtime(cudart.cudaMemsetAsync(CudaArray.of(array).pointer(), 0, array.length() * Float.BYTES, stream),
                    "cudaMemsetAsync");
        } else {
            float[] values = new float[(int) array.length()];
            java.util.Arrays.fill(values, value);
            upload(values, 0, array);
        }
    }

    /** Pinned host memory of at least n floats (pinned, so that copies through it are real DMA, not a second copy). */
    private FloatPointer staging(long n) {
        if (n > stagingFloats) {
            synchronize();
            if (staging != null) {
                cudart.cudaFreeHost(staging);
            }
            long size = Math.max(n, 2 * stagingFloats);
            Pointer p = new Pointer();
            CudaCalls.runtime(cudart.cudaMallocHost(p, size * Float.BYTES), "cudaMallocHost(" + size + " floats)");
            staging = new FloatPointer(p).capacity(size).limit(size);
            stagingFloats = size;
        }
        return staging;
    }

    @Override
    public Blas blas() {
        bind();
        return blas;
    }

    @Override
    public Kernels kernels() {
        bind();
        return kernels;
    }

    /**
     * cuDNN on the backend's stream, started on first use.
     *
     * @throws CudaUnavailableException when cuDNN's libraries cannot be loaded, naming them and the fix
     */
    @Override
    public Convolutions convolutions() {
        bind();
        if (convolutions == null) {
            String problem = CudaProbe.cudnnProblem();
            if (problem != null) {
                throw new CudaUnavailableException(problem);
            }
            convolutions = new CudnnConvolutions(this, stream);
        }
        return convolutions;
    }

    /** The cuDNN algorithms chosen so far, a line per convolution shape and batch size (none before cuDNN is used). */
    public java.util.List<String> cudnnAlgorithms() {
        return convolutions == null ? java.util.List.of() : convolutions.chosenAlgorithms();
    }

    @Override
    public void synchronize() {
        bind();
        CudaCalls.runtime(cudart.cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }

    /** Bytes of device memory free now (cudaMemGetInfo). */
    public long freeBytes() {
        bind();
        try (org.bytedeco.javacpp.SizeTPointer free = new org.bytedeco.javacpp.SizeTPointer(1);
             org.bytedeco.javacpp.SizeTPointer total = new org.bytedeco.javacpp.SizeTPointer(1)) {
            CudaCalls.runtime(cudart.cudaMemGetInfo(free, total), "cudaMemGetInfo");
            return free.get();
        }
    }

    @Override
    public String describe() {
        return "GPU " + gpu.ordinal() + " " + gpu.name() + " (" + gpu.architecture() + ", kernels compiled for " + target
                + ")";
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        // after a CUDA error (sticky on the context) the waits and frees below may fail: what follows is freed anyway
        try {
            synchronize();
        } finally {
            try {
                if (convolutions != null) {
                    convolutions.close();
                }
            } finally {
                convolutions = null;
                closed = true;
                cublas.cublasDestroy_v2(cublasHandle);
                cudart.cudaStreamDestroy(stream);
                if (staging != null) {
                    cudart.cudaFreeHost(staging);
                    staging = null;
                }
                java.lang.ref.WeakReference<CudaBackend> last = BOUND.get();
                if (last != null && last.get() == this) {
                    BOUND.remove();
                }
            }
        }
    }
}
