package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.cudnn.cudnnContext;
import org.bytedeco.cuda.cudnn.cudnnConvolutionBwdDataAlgoPerf_t;
import org.bytedeco.cuda.cudnn.cudnnConvolutionBwdFilterAlgoPerf_t;
import org.bytedeco.cuda.cudnn.cudnnConvolutionFwdAlgoPerf_t;
import org.bytedeco.cuda.cudnn.cudnnConvolutionStruct;
import org.bytedeco.cuda.cudnn.cudnnFilterStruct;
import org.bytedeco.cuda.cudnn.cudnnPoolingStruct;
import org.bytedeco.cuda.cudnn.cudnnTensorStruct;
import org.bytedeco.cuda.global.cudnn;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.dpdl4j.cuda.engine.ConvShape;
import org.dpdl4j.cuda.engine.Convolutions;
import org.dpdl4j.cuda.engine.DeviceArray;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The convolution and pooling passes through cuDNN's legacy API on the backend's stream: NCHW float tensors, cross
 * correlation (DL4J's convolution), FMA math only (no TF32 tensor cores, so that results stay within float rounding of
 * the CPU's), for each shape and batch size the algorithms cuDNN's heuristics rank first among those that use FMA math
 * (deterministic ones for the backward passes), and one workspace grown to the largest need. Max pooling is
 * CUDNN_POOLING_MAX_DETERMINISTIC.
 */
final class CudnnConvolutions implements Convolutions, AutoCloseable {
    private final CudaBackend backend;
    private final cudnnContext handle = new cudnnContext();
    private final FloatPointer one = new FloatPointer(1f);
    private final FloatPointer zero = new FloatPointer(0f);
    private final Map<Key, Plan> plans = new HashMap<>();
    private DeviceArray workspace;
    private long workspaceBytes;

    CudnnConvolutions(CudaBackend backend, CUstream_st stream) {
        this.backend = backend;
        CudaCalls.cudnn(cudnn.cudnnCreate(handle), "cudnnCreate");
        CudaCalls.cudnn(cudnn.cudnnSetStream(handle, stream), "cudnnSetStream");
    }

    private record Key(ConvShape shape, int batch, boolean pooling) {
    }

    /** The descriptors and algorithms of one shape and batch size. */
    private static final class Plan {
        final cudnnTensorStruct x = new cudnnTensorStruct();
        final cudnnTensorStruct y = new cudnnTensorStruct();
        final cudnnFilterStruct w = new cudnnFilterStruct();
        final cudnnConvolutionStruct conv = new cudnnConvolutionStruct();
        final cudnnPoolingStruct pool = new cudnnPoolingStruct();
        int forward;
        int backwardData;
        int backwardFilter;
        long workspaceBytes;
    }

    /**
     * The algorithms chosen for every convolution's shape and batch size so far, a line each (cuDNN's enum values: they
     * decide speed and, between FMA algorithms, the last bits of the results).
     */
    List<String> chosenAlgorithms() {
        List<String> lines = new ArrayList<>();
        plans.forEach((k, p) -> {
            if (!k.pooling()) {
                lines.add(k.shape() + " batch " + k.batch() + ": forward algo " + p.forward + ", backward data algo "
                        + p.backwardData + ", backward filter algo " + p.backwardFilter + ", workspace " + p.workspaceBytes
                        + " bytes");
            }
        });
        return lines;
    }

    private Plan plan(ConvShape s, int b, boolean pooling) {
        return plans.computeIfAbsent(new Key(s, b, pooling), k -> pooling ? poolingPlan(s, b) : convolutionPlan(s, b));
    }

    private Plan poolingPlan(ConvShape s, int b) {
        Plan p = new Plan();
        tensors(p, s, b);
        CudaCalls.cudnn(cudnn.cudnnCreatePoolingDescriptor(p.pool), "cudnnCreatePoolingDescriptor");
        CudaCalls.cudnn(cudnn.cudnnSetPooling2dDescriptor(p.pool, cudnn.CUDNN_POOLING_MAX_DETERMINISTIC,
                cudnn.CUDNN_NOT_PROPAGATE_NAN, s.kH(), s.kW(), s.padH(), s.padW(), s.sH(), s.sW()), "cudnnSetPooling2dDescriptor");
        return p;
    }

    private Plan convolutionPlan(ConvShape s, int b) {
        Plan p = new Plan();
        tensors(p, s, b);
        CudaCalls.cudnn(cudnn.cudnnCreateFilterDescriptor(p.w), "cudnnCreateFilterDescriptor");
        CudaCalls.cudnn(cudnn.cudnnSetFilter4dDescriptor(p.w, cudnn.CUDNN_DATA_FLOAT, cudnn.CUDNN_TENSOR_NCHW, s.outC(),
                s.inC(), s.kH(), s.kW()), "cudnnSetFilter4dDescriptor");
        CudaCalls.cudnn(cudnn.cudnnCreateConvolutionDescriptor(p.conv), "cudnnCreateConvolutionDescriptor");
        CudaCalls.cudnn(cudnn.cudnnSetConvolution2dDescriptor(p.conv, s.padH(), s.padW(), s.sH(), s.sW(), 1, 1,
                cudnn.CUDNN_CROSS_CORRELATION, cudnn.CUDNN_DATA_FLOAT), "cudnnSetConvolution2dDescriptor");
        CudaCalls.cudnn(cudnn.cudnnSetConvolutionMathType(p.conv, cudnn.CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
        int[] n = new int[1];
        int[] c = new int[1];
        int[] h = new int[1];
        int[] w = new int[1];
        CudaCalls.cudnn(cudnn.cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, n, c, h, w),
                "cudnnGetConvolution2dForwardOutputDim");
        if (n[0] != b || c[0] != s.outC() || h[0] != s.outH() || w[0] != s.outW()) {
            throw new CudaException("cuDNN computes a " + n[0] + "x" + c[0] + "x" + h[0] + "x" + w[0] + " output for " + s
                    + " where the engine expects " + b + "x" + s.outC() + "x" + s.outH() + "x" + s.outW());
        }
        int count = cudnn.CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
        int[] returned = new int[1];
        cudnnConvolutionFwdAlgoPerf_t fwd = new cudnnConvolutionFwdAlgoPerf_t(count);
        CudaCalls.cudnn(cudnn.cudnnGetConvolutionForwardAlgorithm_v7(handle, p.x, p.w, p.conv, p.y, count, returned, fwd),
                "cudnnGetConvolutionForwardAlgorithm_v7");
        p.forward = cudnn.CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
        for (int i = returned[0] - 1; i >= 0; i--) {
            cudnnConvolutionFwdAlgoPerf_t r = fwd.getPointer(i);
            if (r.status() == cudnn.CUDNN_STATUS_SUCCESS && r.mathType() == cudnn.CUDNN_FMA_MATH) {
                p.forward = r.algo();
            }
        }
        cudnnConvolutionBwdDataAlgoPerf_t data = new cudnnConvolutionBwdDataAlgoPerf_t(count);
        CudaCalls.cudnn(cudnn.cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, p.w, p.y, p.conv, p.x, count, returned,
                data), "cudnnGetConvolutionBackwardDataAlgorithm_v7");
        p.backwardData = cudnn.CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
        for (int i = returned[0] - 1; i >= 0; i--) {
            cudnnConvolutionBwdDataAlgoPerf_t r = data.getPointer(i);
            if (r.status() == cudnn.CUDNN_STATUS_SUCCESS && r.mathType() == cudnn.CUDNN_FMA_MATH
                    && r.determinism() == cudnn.CUDNN_DETERMINISTIC) {
                p.backwardData = r.algo();
            }
        }
        cudnnConvolutionBwdFilterAlgoPerf_t filter = new cudnnConvolutionBwdFilterAlgoPerf_t(count);
        CudaCalls.cudnn(cudnn.cudnnGetConvolutionBackwardFilterAlgorithm_v7(handle, p.x, p.y, p.conv, p.w, count, returned,
                filter), "cudnnGetConvolutionBackwardFilterAlgorithm_v7");
        p.backwardFilter = cudnn.CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
        for (int i = returned[0] - 1; i >= 0; i--) {
            cudnnConvolutionBwdFilterAlgoPerf_t r = filter.getPointer(i);
            if (r.status() == cudnn.CUDNN_STATUS_SUCCESS && r.mathType() == cudnn.CUDNN_FMA_MATH
                    && r.determinism() == cudnn.CUDNN_DETERMINISTIC) {
                p.backwardFilter = r.algo();
            }
        }
        SizeTPointer bytes = new SizeTPointer(1);
        CudaCalls.cudnn(cudnn.cudnnGetConvolutionForwardWorkspaceSize(handle, p.x, p.w, p.conv, p.y, p.forward, bytes),
                "cudnnGetConvolutionForwardWorkspaceSize");
        long need = bytes.get();
        CudaCalls.cudnn(cudnn.cudnnGetConvolutionBackwardDataWorkspaceSize(handle, p.w, p.y, p.conv, p.x, p.backwardData,
                bytes), "cudnnGetConvolutionBackwardDataWorkspaceSize");
        need = Math.max(need, bytes.get());
        CudaCalls.cudnn(cudnn.cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, p.x, p.y, p.conv, p.w, p.backwardFilter,
                bytes), "cudnnGetConvolutionBackwardFilterWorkspaceSize");
        need = Math.max(need, bytes.get());
        p.workspaceBytes = need;
        growWorkspace(need);
        return p;
    }

    private static void tensors(Plan p, ConvShape s, int b) {
        CudaCalls.cudnn(cudnn.cudnnCreateTensorDescriptor(p.x), "cudnnCreateTensorDescriptor");
        CudaCalls.cudnn(cudnn.cudnnSetTensor4dDescriptor(p.x, cudnn.CUDNN_TENSOR_NCHW, cudnn.CUDNN_DATA_FLOAT, b, s.inC(),
                s.inH(), s.inW()), "cudnnSetTensor4dDescriptor(input)");
        CudaCalls.cudnn(cudnn.cudnnCreateTensorDescriptor(p.y), "cudnnCreateTensorDescriptor");
        CudaCalls.cudnn(cudnn.cudnnSetTensor4dDescriptor(p.y, cudnn.CUDNN_TENSOR_NCHW, cudnn.CUDNN_DATA_FLOAT, b, s.outC(),
                s.outH(), s.outW()), "cudnnSetTensor4dDescriptor(output)");
    }

    private void growWorkspace(long bytes) {
        if (bytes > workspaceBytes) {
            if (workspace != null) {
                backend.free(workspace);
            }
            workspace = backend.allocate((bytes + Float.BYTES - 1) / Float.BYTES);
            workspaceBytes = bytes;
        }
    }

    private Pointer workspace() {
        return workspace == null ? null : CudaArray.of(workspace).pointer();
    }

    private static Pointer ptr(DeviceArray a) {
        return CudaArray.of(a).pointer();
    }

    @Override
    public void forward(ConvShape s, int b, DeviceArray x, DeviceArray w, DeviceArray y) {
        Plan p = plan(s, b, false);
        CudaCalls.cudnn(cudnn.cudnnConvolutionForward(handle, one, p.x, ptr(x), p.w, ptr(w), p.conv, p.forward, workspace(),
                workspaceBytes, zero, p.y, ptr(y)), "cudnnConvolutionForward");
    }

    @Override
    public void backwardData(ConvShape s, int b, DeviceArray w, DeviceArray dy, DeviceArray dx) {
        Plan p = plan(s, b, false);
        CudaCalls.cudnn(cudnn.cudnnConvolutionBackwardData(handle, one, p.w, ptr(w), p.y, ptr(dy), p.conv, p.backwardData,
                workspace(), workspaceBytes, zero, p.x, ptr(dx)), "cudnnConvolutionBackwardData");
    }

    @Override
    public void backwardFilter(ConvShape s, int b, DeviceArray x, DeviceArray dy, DeviceArray dw) {
        Plan p = plan(s, b, false);
        CudaCalls.cudnn(cudnn.cudnnConvolutionBackwardFilter(handle, one, p.x, ptr(x), p.y, ptr(dy), p.conv, p.backwardFilter,
                workspace(), workspaceBytes, zero, p.w, ptr(dw)), "cudnnConvolutionBackwardFilter");
    }

    @Override
    public void maxPool(ConvShape s, int b, DeviceArray x, DeviceArray y) {
        Plan p = plan(s, b, true);
        CudaCalls.cudnn(cudnn.cudnnPoolingForward(handle, p.pool, one, p.x, ptr(x), zero, p.y, ptr(y)), "cudnnPoolingForward");
    }

    @Override
    public void maxPoolBackward(ConvShape s, int b, DeviceArray x, DeviceArray y, DeviceArray dy, DeviceArray dx) {
        Plan p = plan(s, b, true);
        CudaCalls.cudnn(cudnn.cudnnPoolingBackward(handle, p.pool, one, p.y, ptr(y), p.y, ptr(dy), p.x, ptr(x), zero, p.x,
                ptr(dx)), "cudnnPoolingBackward");
    }

    @Override
    public void close() {
        for (Plan p : plans.values()) {
            cudnn.cudnnDestroyTensorDescriptor(p.x);
            cudnn.cudnnDestroyTensorDescriptor(p.y);
            if (!p.w.isNull()) {
                cudnn.cudnnDestroyFilterDescriptor(p.w);
                cudnn.cudnnDestroyConvolutionDescriptor(p.conv);
            }
            if (!p.pool.isNull()) {
                cudnn.cudnnDestroyPoolingDescriptor(p.pool);
            }
        }
        plans.clear();
        if (workspace != null) {
            backend.free(workspace);
            workspace = null;
        }
        cudnn.cudnnDestroy(handle);
    }
}
