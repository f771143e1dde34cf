package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.cublas.cublasContext;
import org.bytedeco.cuda.global.cublas;
import org.bytedeco.javacpp.FloatPointer;
import org.dpdl4j.cuda.engine.Blas;
import org.dpdl4j.cuda.engine.DeviceArray;

/**
 * The products through cuBLAS on the backend's stream, in full float32: the default math mode, which uses no TF32
 * tensor cores for single precision (so the results stay within float rounding of the CPU's), stated explicitly.
 */
final class CublasBlas implements Blas {
    private final cublasContext handle;
    /** alpha and beta live in host memory (cuBLAS's default pointer mode): read when the call is queued. */
    private final FloatPointer alpha = new FloatPointer(1);
    private final FloatPointer beta = new FloatPointer(1);

    CublasBlas(cublasContext handle) {
        this.handle = handle;
        CudaCalls.cublas(cublas.cublasSetMathMode(handle, cublas.CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    }

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, float a, DeviceArray A, int lda, DeviceArray B,
                     int ldb, float b, DeviceArray C, int ldc) {
        alpha.put(0, a);
        beta.put(0, b);
        CudaCalls.cublas(cublas.cublasSgemm_v2(handle, op(transA), op(transB), m, n, k, alpha, CudaArray.of(A).pointer(), lda,
                CudaArray.of(B).pointer(), ldb, beta, CudaArray.of(C).pointer(), ldc), "cublasSgemm");
    }

    @Override
    public void gemmStridedBatched(boolean transA, boolean transB, int m, int n, int k, float a, DeviceArray A, int lda,
                                   long strideA, DeviceArray B, int ldb, long strideB, float b, DeviceArray C, int ldc,
                                   long strideC, int count) {
        alpha.put(0, a);
        beta.put(0, b);
        CudaCalls.cublas(cublas.cublasSgemmStridedBatched(handle, op(transA), op(transB), m, n, k, alpha,
                CudaArray.of(A).pointer(), lda, strideA, CudaArray.of(B).pointer(), ldb, strideB, beta,
                CudaArray.of(C).pointer(), ldc, strideC, count), "cublasSgemmStridedBatched");
    }

    @Override
    public void gemv(boolean transA, int m, int n, float a, DeviceArray A, int lda, DeviceArray x, float b, DeviceArray y) {
        alpha.put(0, a);
        beta.put(0, b);
        CudaCalls.cublas(cublas.cublasSgemv_v2(handle, op(transA), m, n, alpha, CudaArray.of(A).pointer(), lda,
                CudaArray.of(x).pointer(), 1, beta, CudaArray.of(y).pointer(), 1), "cublasSgemv");
    }

    private static int op(boolean transpose) {
        return transpose ? cublas.CUBLAS_OP_T : cublas.CUBLAS_OP_N;
    }
}
