package org.dpdl4j.cuda.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadedLibrariesTest {
    @Test
    void theCudaLibrariesOfAMapAreListedOnceEachByPath() {
        List<String> maps = List.of(
                "7f1c2a000000-7f1c2a200000 r-xp 00000000 08:01 1234 /usr/local/cuda-13.0/lib64/libcudart.so.13.0.96",
                "7f1c2a200000-7f1c2a400000 r--p 00200000 08:01 1234 /usr/local/cuda-13.0/lib64/libcudart.so.13.0.96",
                "7f1c2b000000-7f1c2b100000 r-xp 00000000 08:01 99 /py/site-packages/nvidia/cu13/lib/libcublasLt.so.13",
                "7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 98 /py/site-packages/nvidia/cudnn/lib/libcudnn_cnn.so.9",
                "7f1c2d000000-7f1c2d100000 r-xp 00000000 08:01 97 /usr/lib/x86_64-linux-gnu/libcuda.so.580.82.07",
                "7f1c2e000000-7f1c2e100000 r-xp 00000000 08:01 96 /tmp/cache/libjnicudart.so",
                "7f1c2f000000-7f1c2f100000 r-xp 00000000 08:01 95 /usr/lib/x86_64-linux-gnu/libc.so.6",
                "7ffd1a000000-7ffd1a021000 rw-p 00000000 00:00 0 [stack]");
        assertEquals(List.of("/usr/local/cuda-13.0/lib64/libcudart.so.13.0.96", "/py/site-packages/nvidia/cu13/lib/libcublasLt.so.13",
                "/py/site-packages/nvidia/cudnn/lib/libcudnn_cnn.so.9", "/usr/lib/x86_64-linux-gnu/libcuda.so.580.82.07"),
                LoadedLibraries.cuda(maps), "JavaCPP's JNI wrappers and other libraries are not listed");
    }
}
