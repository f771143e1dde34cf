package org.dpdl4j.cuda.check;

import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.DeviceArray;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.cuda.engine.Kernels;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The device check's harness on the reference backend standing in for the GPU: every comparison it makes passes (the
 * reference against itself, and against the double-precision oracle at the check's tolerance), and the benchmark prints
 * gpu_step.py's RESULT lines. On the GPU machine the same code compares the GPU.
 */
class DeviceCheckHarnessTest {

    @Test
    void correctnessChecksPassOnTheReference() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int failures = new CorrectnessCheck(new JavaBackend(), new PrintStream(text, true, StandardCharsets.UTF_8)).run();
        String out = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, failures, out);
        assertTrue(out.contains("CHECK PASS mlp batch=256 C="), out);
        assertTrue(out.contains("clipping active") && out.contains("clipping inactive"), out);
        assertTrue(out.contains("Philox noise vs reference"), out);
        assertTrue(out.contains("CHECK PASS mlp batch=128, SGD and Nesterovs segments: momentum after 3 private steps"), out);
        assertTrue(out.contains("CHECK PASS cnn batch=64 C=") && out.contains("norms vs reference"), out);
        assertTrue(out.matches("(?s).*CHECK PASS cnn batch=32 C=[^\\n]*clipping active\\): clipped sum vs double oracle.*"), out);
        assertTrue(out.matches("(?s).*CHECK PASS mlp batch=256 C=[^\\n]*clipping active\\): clip excess over C.*"), out);
    }

    /**
     * The negative control: a backend whose Philox noise is 1% too large (caught by the comparison with the reference's
     * draws), or whose clip factors are 1% off, fails the correctness check, and one whose gossip is 1% off fails the
     * round check, so a passing check on the GPU means the comparisons compared something; noise that is not noise at all
     * fails the moments check.
     */
    @Test
    void aBackendOffByOnePercentFailsTheCheck() {
        for (String kernel : new String[]{"addPhiloxGaussian", "clipFactors"}) {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            int failures = new CorrectnessCheck(perturbed(kernel), new PrintStream(text, true, StandardCharsets.UTF_8)).run();
            String out = text.toString(StandardCharsets.UTF_8);
            assertTrue(failures > 0 && out.contains("CHECK FAIL"), kernel + " 1% off:\n" + out);
        }
        assertTrue(NoiseMoments.excess(new float[1000]) > 5, "zeros are not N(0, 1) noise");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int failures = new RoundCheck(perturbed("mixRows"), new PrintStream(text, true, StandardCharsets.UTF_8)).run();
        assertTrue(failures > 0, "gossip 1% off:\n" + text.toString(StandardCharsets.UTF_8));
    }

    /** The reference backend with one kernel's float argument (Philox's std) or its output (clip factors) 1% off. */
    private static Backend perturbed(String kernel) {
        JavaBackend real = new JavaBackend();
        Kernels kernels = real.kernels();
        Kernels off = (Kernels) Proxy.newProxyInstance(Kernels.class.getClassLoader(), new Class<?>[]{Kernels.class},
                (proxy, method, args) -> {
                    if (method.getName().equals(kernel) && kernel.equals("addPhiloxGaussian")) {
                        args[args.length - 1] = (Float) args[args.length - 1] * 1.01f;
                    }
                    Object result = invoke(method, kernels, args);
                    if (method.getName().equals(kernel) && kernel.equals("clipFactors")) {
                        scale(real, (DeviceArray) args[2], (Integer) args[3]);   // the factors [b]
                    }
                    if (method.getName().equals(kernel) && kernel.equals("mixRows")) {
                        scale(real, (DeviceArray) args[0], (Integer) args[5] * (Integer) args[6]);   // the mixed rows [n, p]
                    }
                    return result;
                });
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[]{Backend.class},
                (proxy, method, args) -> method.getName().equals("kernels") ? off : invoke(method, real, args));
    }

    private static void scale(JavaBackend backend, DeviceArray array, int count) {
        float[] values = new float[count];
        backend.download(array, values, 0);
        for (int i = 0; i < count; i++) {
            values[i] *= 1.01f;
        }
        backend.upload(values, 0, array);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void clipExcessIsHowFarAContributionLandsAboveC() {
        // clipped by 2 though its true norm is 2.0001 (5e-5 above); unclipped and within C; clipped by a norm above the truth
        float[] used = {2f, 0.5f, 3f};
        double[] truth = {2.0001, 0.6, 2.9};
        assertEquals(5e-5, CorrectnessCheck.clipExcess(used, truth, 1.0), 1e-12);
        assertEquals(0.0, CorrectnessCheck.clipExcess(new float[]{0.5f}, new double[]{0.9}, 1.0));
        assertEquals(0.0, CorrectnessCheck.clipExcess(new float[]{3f}, new double[]{2.9}, 1.0));
        // left unclipped because its norm erred just below C, though its true norm is above: 2e-5 above C
        assertEquals(2e-5, CorrectnessCheck.clipExcess(new float[]{0.99999f}, new double[]{1.00002}, 1.0), 1e-12);
    }

    @Test
    void benchmarkPrintsResultLines() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new StepBenchmark(new JavaBackend(), "Java reference", new PrintStream(text, true, StandardCharsets.UTF_8), 2, 1, 0)
                .run(CheckModels.LOGISTIC, 8);
        String out = text.toString(StandardCharsets.UTF_8);
        new StepBenchmark(new JavaBackend(), "Java reference", new PrintStream(text, true, StandardCharsets.UTF_8), 2, 1, 0)
                .run(CheckModels.CNN, 3);
        out = text.toString(StandardCharsets.UTF_8);
        for (String mode : new String[]{"dpdl4j-plain", "dpdl4j-dp-philox", "dpdl4j-dp-hostnoise", "dpdl4j-dp-philox-readback"}) {
            assertTrue(out.contains("RESULT device=Java_reference model=logistic batch=8 mode=" + mode + " block_median_ms="), out);
            assertTrue(out.contains("RESULT device=Java_reference model=cnn batch=3 mode=" + mode + " block_median_ms="), out);
        }
    }

    @Test
    void roundChecksPassOnTheReference() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int failures = new RoundCheck(new JavaBackend(), new PrintStream(text, true, StandardCharsets.UTF_8)).run();
        String out = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, failures, out);
        for (String name : new String[]{"D-SGD, 8 nodes on a ring", "Decor, example level, 20 nodes on a 8-regular",
            "CDP, user level, 6 nodes on a complete, full batches"}) {
            assertTrue(out.contains("CHECK PASS " + name), out);
        }
        assertTrue(out.contains("round 2: node models vs reference"), out);
        assertTrue(out.contains("CHECK PASS FedAvg local step 1, 6 of 10 clients"), out);
        assertTrue(out.contains("CHECK PASS DP-mu^2-FL, 8 machines at two points, batches of 4, round 3: mean message"), out);
        assertTrue(out.contains("CHECK PASS Decor noise drawn on the device, 20 nodes on a 8-regular graph (80 edges), round 2"),
                out);
        assertTrue(out.contains("CHECK PASS Decor, example level, data kept on the device, 8 nodes on a ring, padded batches"
                + " of 16, round 2: node models vs reference"), out);
        assertTrue(out.contains("CHECK PASS a Spark block's Decor noise, 8 nodes and 8 edges listed"), out);
        for (String what : new String[]{"FedAvg: weighted mean", "central DP: clip-weighted sum", "local DP: clipped updates",
            "local DP: listed clients' Philox rows", "local DP: noisy sum"}) {
            assertTrue(out.contains("CHECK PASS FedAvg family, 6 of 10 clients after a local step, padded batches of 16, "
                    + what + " vs reference"), out);
        }
    }

    @Test
    void roundBenchmarkSaysWhatFitsAndPrintsRoundLines() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        long memory = 1L << 30;
        PrintStream print = new PrintStream(text, true, StandardCharsets.UTF_8);
        CheckParts parts = new CheckParts(print, System.nanoTime(), 0);
        new RoundBenchmark(new JavaBackend(), () -> memory, CheckModels.LOGISTIC, "Java reference", print, 2, 1, 0)
                .run(java.util.List.of(4, 20, 100_000_000), parts);
        String out = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, parts.errors(), out);
        assertTrue(out.contains("FIT device=Java_reference model=logistic batch=64 bytes_per_node="), out);
        for (String mode : new String[]{"dsgd", "decor-hostnoise", "decor-noise-on-device", "decor-as-run", "decor-philox"}) {
            assertTrue(out.contains("ROUND device=Java_reference model=logistic topology=ring nodes=4 batch=64 mode=" + mode), out);
            assertTrue(out.contains("ROUND device=Java_reference model=logistic topology=8-regular nodes=20 batch=64 mode=" + mode), out);
        }
        assertTrue(out.contains("SKIP round 8-regular n=4: the 8-regular graph here needs more than 16 nodes"), out);
        assertTrue(out.contains("SKIP round ring n=100000000: needs"), out);
    }

    /**
     * A part that throws is printed as an ERROR line with its cause and counted, and the parts after it still run; past
     * the deadline a benchmark is skipped, saying so, and the round benchmark skips its later sizes.
     */
    @Test
    void partsReportErrorsAndKeepToTheDeadline() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(text, true, StandardCharsets.UTF_8);
        CheckParts parts = new CheckParts(print, System.nanoTime(), 0);
        assertEquals(0, parts.check("correctness", () -> {
            throw new IllegalStateException("cudnnCreate failed", new UnsatisfiedLinkError("libcudnn_ops.so.9"));
        }));
        assertEquals(2, parts.check("rounds", () -> 2), "a part that ends returns its failures");
        boolean[] ran = {false};
        parts.benchmark("mlp batch 256", () -> ran[0] = true);
        assertTrue(ran[0], "no deadline: the benchmark runs");
        String out = text.toString(StandardCharsets.UTF_8);
        assertEquals(1, parts.errors(), out);
        assertTrue(out.contains("ERROR correctness: java.lang.IllegalStateException: cudnnCreate failed")
                && out.contains("#   caused by java.lang.UnsatisfiedLinkError: libcudnn_ops.so.9"), out);

        ByteArrayOutputStream late = new ByteArrayOutputStream();
        PrintStream lateOut = new PrintStream(late, true, StandardCharsets.UTF_8);
        CheckParts pastDeadline = new CheckParts(lateOut, System.nanoTime() - 10_000_000_000L, 5);
        ran[0] = false;
        pastDeadline.benchmark("cnn batch 2048", () -> ran[0] = true);
        new RoundBenchmark(new JavaBackend(), () -> 1L << 30, CheckModels.LOGISTIC, "Java reference", lateOut, 2, 1, 0)
                .run(java.util.List.of(4), pastDeadline);
        String lateText = late.toString(StandardCharsets.UTF_8);
        assertTrue(!ran[0] && lateText.matches("(?s).*SKIP cnn batch 2048 benchmark: past the deadline \\(\\d+ s of 5 s\\).*"),
                lateText);
        assertTrue(lateText.contains("SKIP round ring n=4 benchmark: past the deadline") && !lateText.contains("ROUND "),
                lateText);
        assertEquals(0, pastDeadline.errors());
    }
}
