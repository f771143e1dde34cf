package org.dpdl4j.cuda.device;

import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;

/** A JavaCPP pointer to device memory, as the bytedeco CUDA functions take it: an address JavaCPP never reads from. */
final class DeviceFloats extends FloatPointer {
    DeviceFloats(long address, long length) {
        super((Pointer) null);
        this.address = address;
        this.limit = length;
        this.capacity = length;
    }
}
