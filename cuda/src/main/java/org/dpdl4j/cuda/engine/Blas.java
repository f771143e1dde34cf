package org.dpdl4j.cuda.engine;

/**
 * The BLAS products the engine needs, with the column-major conventions of BLAS and cuBLAS (a matrix of m rows
 * has element (i, j) at {@code i + j * ld}).
 */
public interface Blas {
    /** C := alpha op(A) op(B) + beta C, with op(A) m x k and op(B) k x n; C is not read when beta is 0. */
    void gemm(boolean transA, boolean transB, int m, int n, int k, float alpha, DeviceArray a, int lda, DeviceArray b,
              int ldb, float beta, DeviceArray c, int ldc);

    /**
     * C_j := alpha op(A_j) op(B_j) + beta C_j for j in [0, count), matrix j of each array starting {@code j * stride}
     * floats after the array's start (cuBLAS's strided batched product).
     */
    void gemmStridedBatched(boolean transA, boolean transB, int m, int n, int k, float alpha, DeviceArray a, int lda,
                            long strideA, DeviceArray b, int ldb, long strideB, float beta, DeviceArray c, int ldc,
                            long strideC, int count);

    /** y := alpha op(A) x + beta y, with A m x n; y is not read when beta is 0. */
    void gemv(boolean transA, int m, int n, float alpha, DeviceArray a, int lda, DeviceArray x, float beta, DeviceArray y);
}
