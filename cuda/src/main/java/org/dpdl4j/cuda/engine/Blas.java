package org.dpdl4j.cuda.engine;

/**
 * The two BLAS products the engine needs, with the column-major conventions of BLAS and cuBLAS (a matrix of m rows
 * has element (i, j) at {@code i + j * ld}).
 */
public interface Blas {
    /** C := alpha op(A) op(B) + beta C, with op(A) m x k and op(B) k x n; C is not read when beta is 0. */
    void gemm(boolean transA, boolean transB, int m, int n, int k, float alpha, DeviceArray a, int lda, DeviceArray b,
              int ldb, float beta, DeviceArray c, int ldc);

    /** y := alpha op(A) x + beta y, with A m x n; y is not read when beta is 0. */
    void gemv(boolean transA, int m, int n, float alpha, DeviceArray a, int lda, DeviceArray x, float beta, DeviceArray y);
}
