package org.dpdl4j.cuda.device;

import org.dpdl4j.cuda.engine.Activation;
import org.dpdl4j.cuda.engine.ConvShape;
import org.dpdl4j.cuda.engine.DeviceArray;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.cuda.engine.KernelSource;
import org.dpdl4j.cuda.engine.OutputLoss;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every launch {@link CudaKernels} makes passes the arguments of the kernel's C signature in {@code dp_step.cu}, in
 * order and with the same types (a device pointer, int, float, double, unsigned long long): the arguments of a GPU launch
 * are raw bytes, so a mismatch would not fail, it would compute with garbage.
 */
class KernelSignatureTest {

    /** Records what a launch would pass instead of launching. */
    private static final class Recording implements KernelCall {
        final Map<String, List<String>> launched = new TreeMap<>();
        private List<String> current = new ArrayList<>();

        @Override
        public KernelCall args() {
            current = new ArrayList<>();
            return this;
        }

        @Override
        public KernelCall ptr(DeviceArray a) {
            current.add("ptr");
            return this;
        }

        @Override
        public KernelCall i32(int v) {
            current.add("int");
            return this;
        }

        @Override
        public KernelCall f32(float v) {
            current.add("float");
            return this;
        }

        @Override
        public KernelCall f64(double v) {
            current.add("double");
            return this;
        }

        @Override
        public KernelCall u64(long v) {
            current.add("unsigned long long");
            return this;
        }

        @Override
        public void launch(String kernel, long work) {
            launched.put(kernel, current);
        }
    }

    @Test
    void everyLaunchMatchesItsKernelsSignature() {
        Recording r = new Recording();
        CudaKernels k = new CudaKernels(r);
        DeviceArray a = new JavaBackend().allocate(64);
        k.biasActivation(a, a, 16, 4, 4, Activation.TANH);
        k.clipFactors(a, a, a, 4, 1f);
        k.scaleByExample(a, 16, 4, 4, a);
        k.addRowDots(a, a, a, 4, 4, true, a);
        k.im2col(a, a, new ConvShape(1, 4, 4, 2, 2, 2, 1, 1, 0, 0), 1);
        k.activationBackprop(a, a, 16, Activation.RELU);
        k.outputLoss(OutputLoss.softmaxCrossEntropy(1e-10), a, a, a, 4, 4);
        k.outputLoss(OutputLoss.sigmoidCrossEntropy(1e-5), a, a, a, 4, 4);
        k.outputLoss(OutputLoss.squaredError(Activation.IDENTITY, true), a, a, a, 4, 4);
        k.addGhostNorms(a, a, 4, 1, null, a, 4, 4, 4, true, true);
        k.clipErrors(a, 4, 4, a, a, 1f);
        k.noisySgd(a, a, null, 16, 2f, 0.1f);
        k.noisyNesterovs(a, a, a, null, 16, 2f, 0.1f, 0.9f);
        k.addPhiloxGaussian(a, 16, 1L, 2L, 1f);
        k.mixRows(a, a, a, a, a, 4, 4);
        k.gatherRows(a, a, a, 4, 4);
        k.addPhiloxRows(a, 4, 4, 1L, 2L, 3L, 1.0);
        k.addPhiloxListed(a, 4, 4, 1L, 2L, 3L, a, 1.0);
        assertEquals(signatures(), r.launched);
    }

    /** Each kernel's parameter types, from the source. */
    private static Map<String, List<String>> signatures() {
        Map<String, List<String>> out = new TreeMap<>();
        Matcher m = Pattern.compile("extern \"C\" __global__ void (\\w+)\\(([^)]*)\\)").matcher(KernelSource.text());
        while (m.find()) {
            List<String> types = new ArrayList<>();
            for (String param : m.group(2).split(",")) {
                String p = param.strip().replaceAll("\\s+", " ");
                types.add(p.contains("*") ? "ptr" : p.substring(0, p.lastIndexOf(' ')).replace("const ", ""));
            }
            out.put(m.group(1), types);
        }
        assertEquals(new java.util.TreeSet<>(List.of(KernelSource.KERNELS)), out.keySet(), "KernelSource.KERNELS lists the source's kernels");
        return out;
    }
}
