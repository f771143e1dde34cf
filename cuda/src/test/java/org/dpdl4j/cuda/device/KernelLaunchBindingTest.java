package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.annotation.ByPtrPtr;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which cuLaunchKernel binding the launches call, checked without a GPU. The presets declare two: one taking
 * {@code PointerPointer}s, passed as the {@code void**} the driver reads the kernel's argument pointers from, and one
 * taking plain {@code Pointer}s marked {@code @ByPtrPtr}, for which JavaCPP passes the address of the pointer instead:
 * the driver would then read the arguments one indirection off and the first launch would fail or write anywhere.
 * The reference backend cannot show this (it never calls the driver), so the class file is read.
 */
class KernelLaunchBindingTest {
    private static final String PREFIX = "(Lorg/bytedeco/cuda/cudart/CUfunc_st;IIIIIIILorg/bytedeco/cuda/cudart/CUstream_st;";
    private static final String WITH_POINTER_POINTERS = PREFIX
            + "Lorg/bytedeco/javacpp/PointerPointer;Lorg/bytedeco/javacpp/PointerPointer;)I";
    private static final String WITH_POINTERS = PREFIX + "Lorg/bytedeco/javacpp/Pointer;Lorg/bytedeco/javacpp/Pointer;)I";

    @Test
    void theLaunchPassesItsArgumentArrayAsVoidPointerPointer() throws Exception {
        // the reason: the plain-Pointer binding takes the address of its pointer (loaded without initialising the
        // class, which would load the CUDA libraries)
        Class<?> cudart = Class.forName("org.bytedeco.cuda.global.cudart", false, getClass().getClassLoader());
        Method plain = cudart.getMethod("cuLaunchKernel", CUfunc_st.class, int.class, int.class, int.class, int.class,
                int.class, int.class, int.class, CUstream_st.class, Pointer.class, Pointer.class);
        Annotation[] kernelParams = plain.getParameterAnnotations()[9];
        assertTrue(Arrays.stream(kernelParams).anyMatch(a -> a instanceof ByPtrPtr),
                "the presets' plain-Pointer cuLaunchKernel is @ByPtrPtr; if that changed, revisit this test");
        assertNotNull(cudart.getMethod("cuLaunchKernel", CUfunc_st.class, int.class, int.class, int.class, int.class,
                int.class, int.class, int.class, CUstream_st.class, PointerPointer.class, PointerPointer.class));

        String constants = classFileText(KernelLaunch.class);
        assertTrue(constants.contains(WITH_POINTER_POINTERS), "KernelLaunch calls the PointerPointer binding");
        assertFalse(constants.contains(WITH_POINTERS), "KernelLaunch must not call the @ByPtrPtr binding");
    }

    /** The class file's bytes as Latin-1 text, where its method descriptors appear as written. */
    private static String classFileText(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            assertNotNull(in, "the class file of " + c.getName());
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
