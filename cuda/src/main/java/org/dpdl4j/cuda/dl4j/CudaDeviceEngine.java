package org.dpdl4j.cuda.dl4j;

import org.dpdl4j.cuda.device.CudaBackend;
import org.dpdl4j.cuda.device.CudaException;
import org.dpdl4j.cuda.device.CudaProbe;
import org.dpdl4j.cuda.device.CudaStatus;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.DeviceEngine;
import org.dpdl4j.optim.DeviceUnavailableException;
import org.dpdl4j.optim.ExampleGradients;

/**
 * dpdl4j's CUDA engine as the core finds it ({@code META-INF/services/org.dpdl4j.optim.DeviceEngine}): usable when
 * {@link CudaProbe} finds a GPU of sm_75 or later, its driver and the CUDA 13 libraries; computes the float32 dense
 * networks {@link DenseModels} accepts.
 */
public final class CudaDeviceEngine implements DeviceEngine {
    @Override
    public ComputeDevice device() {
        return ComputeDevice.CUDA;
    }

    @Override
    public Report report() {
        CudaStatus s = CudaProbe.status();
        return new Report(s.usable(), s.facts(), s.problem());
    }

    @Override
    public String whyNot(DenseNetworkSpec spec) {
        return DenseModels.whyNot(spec);
    }

    @Override
    public ExampleGradients open(DenseNetworkSpec spec) {
        CudaBackend backend;
        try {
            backend = CudaBackend.open();
        } catch (IllegalStateException | CudaException e) {   // unusable, or the kernels did not compile or load
            throw new DeviceUnavailableException("the CUDA engine cannot start: " + e.getMessage(), e);
        }
        try {
            return new CudaExampleGradients(spec, backend, true);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }
}
