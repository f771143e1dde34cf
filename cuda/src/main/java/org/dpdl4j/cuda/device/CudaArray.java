package org.dpdl4j.cuda.device;

import org.dpdl4j.cuda.engine.DeviceArray;

/** Floats in device memory: an address and a length, and the pointer object the CUDA calls take. */
final class CudaArray implements DeviceArray {
    private final long address;
    private final long length;
    private final DeviceFloats pointer;

    CudaArray(long address, long length) {
        this.address = address;
        this.length = length;
        this.pointer = new DeviceFloats(address, length);
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public DeviceArray slice(long offset, long count) {
        DeviceArray.checkSlice(length, offset, count);
        return new CudaArray(address + offset * Float.BYTES, count);
    }

    long address() {
        return address;
    }

    DeviceFloats pointer() {
        return pointer;
    }

    /** The device address of an array of this backend, 0 for null (the kernels' "absent"). */
    static long addressOf(DeviceArray a) {
        return a == null ? 0L : of(a).address;
    }

    static CudaArray of(DeviceArray a) {
        if (a instanceof CudaArray c) {
            return c;
        }
        throw new IllegalArgumentException("an array of another backend (" + (a == null ? "null" : a.getClass().getSimpleName())
                + ") was given to the CUDA backend");
    }
}
