package org.dpdl4j.cuda.engine;

/** The textbook column-major BLAS products, summed in double: the reference for cuBLAS's single-precision ones. */
final class JavaBlas implements Blas {
    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, float alpha, DeviceArray a, int lda,
                     DeviceArray b, int ldb, float beta, DeviceArray c, int ldc) {
        JavaArray A = JavaArray.of(a);
        JavaArray B = JavaArray.of(b);
        JavaArray C = JavaArray.of(c);
        checkLd(transA ? k : m, lda, "lda");
        checkLd(transB ? n : k, ldb, "ldb");
        checkLd(m, ldc, "ldc");
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                double s = 0;
                for (int l = 0; l < k; l++) {
                    float x = transA ? A.get(l + i * lda) : A.get(i + l * lda);
                    float y = transB ? B.get(j + l * ldb) : B.get(l + j * ldb);
                    s += (double) x * y;
                }
                float v = (float) (alpha * s);
                C.set(i + j * ldc, beta == 0f ? v : v + beta * C.get(i + j * ldc));
            }
        }
    }

    @Override
    public void gemmStridedBatched(boolean transA, boolean transB, int m, int n, int k, float alpha, DeviceArray a, int lda,
                                   long strideA, DeviceArray b, int ldb, long strideB, float beta, DeviceArray c, int ldc,
                                   long strideC, int count) {
        for (int j = 0; j < count; j++) {
            gemm(transA, transB, m, n, k, alpha, rest(a, j * strideA), lda, rest(b, j * strideB), ldb, beta,
                    rest(c, j * strideC), ldc);
        }
    }

    /** The array from {@code offset} to its end. */
    private static DeviceArray rest(DeviceArray a, long offset) {
        return a.slice(offset, a.length() - offset);
    }

    @Override
    public void gemv(boolean transA, int m, int n, float alpha, DeviceArray a, int lda, DeviceArray x, float beta,
                     DeviceArray y) {
        JavaArray A = JavaArray.of(a);
        JavaArray X = JavaArray.of(x);
        JavaArray Y = JavaArray.of(y);
        checkLd(m, lda, "lda");
        int rows = transA ? n : m;
        int inner = transA ? m : n;
        for (int r = 0; r < rows; r++) {
            double s = 0;
            for (int l = 0; l < inner; l++) {
                float v = transA ? A.get(l + r * lda) : A.get(r + l * lda);
                s += (double) v * X.get(l);
            }
            float out = (float) (alpha * s);
            Y.set(r, beta == 0f ? out : out + beta * Y.get(r));
        }
    }

    private static void checkLd(int rows, int ld, String name) {
        if (ld < Math.max(1, rows)) {
            throw new IllegalArgumentException(name + " = " + ld + " is smaller than the " + rows + " rows of its matrix");
        }
    }
}
