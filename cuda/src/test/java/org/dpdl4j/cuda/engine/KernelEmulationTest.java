package org.dpdl4j.cuda.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA C kernels themselves, run on the CPU: {@code dp_step.cu} compiled as C++ by g++ behind a small shim
 * ({@code __global__} as nothing, {@code threadIdx}/{@code blockIdx} as globals, every launch emulated by looping over a
 * grid of 2 blocks of 64 threads, fewer than most kernels' outputs, so that the grid-stride loops go round), without contracted multiply-adds, and
 * compared with {@link JavaKernels} on the same inputs: the engine's CPU tests check the Java reference, this checks
 * that the CUDA source computes what the reference computes. Each C call is the one the CUDA backend's launch makes for
 * the same {@link Kernels} call (its arguments recorded in order, with their values), so the backend's packing of the
 * arguments is checked too. Every kernel is a loop without shared memory or
 * synchronisation, so running its threads one after another is exact. Values agree to 1e-6 relative (exp and log come
 * from the C library here and from Java there).
 */
class KernelEmulationTest {
    private static final String SHIM = """
            #include <cmath>
            #include <cstdio>
            struct Dim3 { unsigned int x, y, z; };
            static Dim3 threadIdx, blockIdx, blockDim, gridDim;
            #define __global__
            #define __device__
            #define __forceinline__ inline
            static inline unsigned int __umulhi(unsigned int a, unsigned int b) {
                return (unsigned int) (((unsigned long long) a * b) >> 32);
            }
            #define EMULATE(call) \\
                for (unsigned int g_ = 0; g_ < 2; g_++) \\
                    for (unsigned int t_ = 0; t_ < 64; t_++) { \\
                        gridDim.x = 2; blockDim.x = 64; blockIdx.x = g_; threadIdx.x = t_; call; }
            static void dump(const char* name, const float* v, int n) {
                for (int i = 0; i < n; i++) std::printf("%s %d %a\\n", name, i, (double) v[i]);
            }
            """;

    /** A call of one of the {@link Kernels}, its arrays by name. */
    @FunctionalInterface
    private interface KernelsCall {
        void on(Kernels kernels, Map<String, DeviceArray> arrays);
    }

    /**
     * One kernel call: its arrays, the C++ calls (the launches the CUDA backend makes, arguments recorded), the same
     * call on the Java reference, the arrays to compare.
     */
    private record Case(String name, Map<String, float[]> arrays, List<String> launches, Consumer<Map<String, DeviceArray>> java,
                        List<String> outputs) {
    }

    private final SplittableRandom random = new SplittableRandom(2024);
    private final JavaKernels kernels = new JavaKernels();
    private final List<Case> cases = new ArrayList<>();

    @Test
    void theCudaSourceComputesWhatTheJavaReferenceComputes(@TempDir Path dir) throws Exception {
        Path gxx = onPath("g++");
        assumeTrue(gxx != null, "needs g++ on the PATH to run the CUDA kernels' source on the CPU");
        int b = 37;
        int n = 5;
        Activation[] acts = {Activation.IDENTITY, Activation.RELU, Activation.leakyRelu(0.1f), Activation.TANH, Activation.SIGMOID};
        for (Activation f : acts) {
            add("bias_act_" + f.kind() + f.slope(), arrays("z", gaussian(b * n, 3), "bias", gaussian(n, 1)),
                    (k, m) -> k.biasActivation(m.get("z"), m.get("bias"), b * n, b, n, f), "z");
            add("backprop_" + f.kind() + f.slope(), arrays("eps", gaussian(b * n, 1), "a", activated(f, b * n)),
                    (k, m) -> k.activationBackprop(m.get("eps"), m.get("a"), b * n, f), "eps");
        }
        add("bias_act_no_bias", arrays("z", gaussian(b * n, 3)),
                (k, m) -> k.biasActivation(m.get("z"), null, b * n, b, n, Activation.TANH), "z");
        // NCHW maps: 3 examples of n channels of 4 x 3 positions, the bias per channel
        add("bias_act_nchw", arrays("z", gaussian(3 * n * 12, 2), "bias", gaussian(n, 1)),
                (k, m) -> k.biasActivation(m.get("z"), m.get("bias"), 3 * n * 12, 12, n, Activation.TANH), "z");
        for (double eps : new double[]{1e-10, 0.3}) {
            for (boolean soft : new boolean[]{false, true}) {
                OutputLoss loss = OutputLoss.softmaxCrossEntropy(eps);
                add("softmax_" + eps + soft, arrays("z", gaussian(b * n, 4), "y", labels(b, n, soft), "loss", new float[b]),
                        (k, m) -> k.outputLoss(loss, m.get("z"), m.get("y"), m.get("loss"), b, n), "z", "loss");
            }
        }
        for (boolean soft : new boolean[]{false, true}) {
            OutputLoss loss = OutputLoss.sigmoidCrossEntropy(1e-5);
            add("sigmoid_xent_" + soft, arrays("z", gaussian(b * 3, 6), "y", binary(b * 3, soft), "loss", new float[b]),
                    (k, m) -> k.outputLoss(loss, m.get("z"), m.get("y"), m.get("loss"), b, 3), "z", "loss");
        }
        for (Activation f : new Activation[]{Activation.TANH, Activation.IDENTITY}) {
            for (boolean mean : new boolean[]{false, true}) {
                OutputLoss loss = OutputLoss.squaredError(f, mean);
                add("squared_" + f.kind() + mean, arrays("z", gaussian(b * n, 2), "y", gaussian(b * n, 1), "loss", new float[b]),
                        (k, m) -> k.outputLoss(loss, m.get("z"), m.get("y"), m.get("loss"), b, n), "z", "loss");
            }
        }
        int nIn = 11;
        for (boolean rowMajor : new boolean[]{true, false}) {
            for (boolean given : new boolean[]{false, true}) {
                for (boolean first : new boolean[]{false, true}) {
                    boolean bias = given != first;
                    int rs = rowMajor ? nIn : 1;
                    int cs = rowMajor ? 1 : b;
                    add("ghost_" + rowMajor + given + first, arrays("sq", uniform(b, 5), "a", gaussian(b * nIn, 1),
                                    "asq", uniform(b, 9), "e", gaussian(b * n, 1)),
                                            (k, m) -> k.addGhostNorms(m.get("sq"), m.get("a"), rs, cs, given ? m.get("asq") : null, m.get("e"),
                                    b, nIn, n, bias, first), "sq");
                }
            }
        }
        float[] sq = uniform(b, 4);
        sq[3] = 0f;   // a zero gradient: factor 1
        add("clip", arrays("e", gaussian(b * 9, 1), "sq", sq, "norms", new float[b]),
                (k, m) -> k.clipErrors(m.get("e"), b, 9, m.get("sq"), m.get("norms"), 0.75f), "e", "norms");
        int p = 301;
        for (boolean noise : new boolean[]{true, false}) {
            add("sgd_" + noise, arrays("w", gaussian(p, 1), "g", gaussian(p, 5), "noise", gaussian(p, 2)),
                    (k, m) -> k.noisySgd(m.get("w"), m.get("g"), noise ? m.get("noise") : null, p, 37f, 0.05f), "w", "g");
        }
        for (boolean noise : new boolean[]{true, false}) {
            add("nesterovs_" + noise, arrays("w", gaussian(p, 1), "v", gaussian(p, 0.1), "g", gaussian(p, 5),
                            "noise", gaussian(p, 2)),
                                    (k, m) -> k.noisyNesterovs(m.get("w"), m.get("v"), m.get("g"), noise ? m.get("noise") : null, p, 37f,
                            0.05f, 0.9f), "w", "v", "g");
        }
        float[] cs = uniform(b, 4);
        cs[5] = 0f;
        add("clip_factors", arrays("sq", cs, "norms", new float[b], "f", new float[b]),
                (k, m) -> k.clipFactors(m.get("sq"), m.get("norms"), m.get("f"), b, 0.75f), "norms", "f");
        for (int inner : new int[]{1, 7}) {
            add("scale_" + inner, arrays("v", gaussian(b * 7, 1), "f", uniform(b, 1)),
                    (k, m) -> k.scaleByExample(m.get("v"), b * 7, inner, b, m.get("f")), "v");
        }
        // squared lengths (u = d) and dot products, of vectors too short to split (one lane) and long enough for 3 lanes
        // (the lanes' strides leaving a remainder), written and added
        for (int length : new int[]{13, 3 * Kernels.VALUES_PER_LANE + 5}) {
            int lanes = Kernels.lanes(length);
            for (boolean first : new boolean[]{true, false}) {
                add("row_squares_" + length + "_" + first, arrays("sq", uniform(b, 3), "g", gaussian(b * length, 1),
                                "parts", new float[b * lanes]),
                        (k, m) -> k.addRowDots(m.get("sq"), m.get("g"), m.get("g"), length, b, first, m.get("parts")),
                        "sq", "parts");
            }
            add("row_dots_" + length, arrays("sq", uniform(b, 3), "u", gaussian(b * length, 1), "d",
                            gaussian(b * length, 1), "parts", new float[b * lanes]),
                    (k, m) -> k.addRowDots(m.get("sq"), m.get("u"), m.get("d"), length, b, false, m.get("parts")),
                    "sq", "parts");
        }
        // strided, padded, non-square: 2 examples of 3 channels of 9 x 7, kernel 4 x 3, stride 2 x 1, padding 1 x 2
        ConvShape conv = new ConvShape(3, 9, 7, 5, 4, 3, 2, 1, 1, 2);
        int cols = 2 * conv.taps() * conv.positions();
        add("im2col", arrays("x", gaussian(2 * conv.inSize(), 1), "cols", new float[cols]),
                (k, m) -> k.im2col(m.get("x"), m.get("cols"), conv, 2), "cols");
        // gossip over compressed rows: 4 nodes, row 2 empty, row 3 out of column order is not allowed, so in order
        add("mix_rows", arrays("out", new float[4 * 13], "start", new float[]{0, 3, 5, 5, 7}, "cols",
                        new float[]{0, 1, 3, 1, 2, 0, 3}, "w", uniform(7, 1), "x", gaussian(4 * 13, 1)),
                (k, m) -> k.mixRows(m.get("out"), m.get("start"), m.get("cols"), m.get("w"), m.get("x"), 4, 13), "out");
        // a batch of 5 rows of width 40 from 4 rows of data, one row twice, the last (the zero row) as padding
        add("gather_rows", arrays("out", new float[5 * 40], "src", gaussian(4 * 40, 1), "index", new float[]{2, 0, 2, 3, 1}),
                (k, m) -> k.gatherRows(m.get("out"), m.get("src"), m.get("index"), 5, 40), "out");
        add("philox_rows", arrays("x", gaussian(4 * 50, 1)),
                (k, m) -> k.addPhiloxRows(m.get("x"), 4, 50, 0x9E3779B97F4A7C15L, 0x4000000000000005L, 1L << 32, 0.5), "x");
        // parties 3, 40000 (1 * 32768 + 7232) and 2^30 - 1 (32767 * 32768 + 32767)
        add("philox_listed", arrays("x", gaussian(3 * 50, 1), "ids", new float[]{0, 3, 1, 7232, 32767, 32767}),
                (k, m) -> k.addPhiloxListed(m.get("x"), 3, 50, 0x9E3779B97F4A7C15L, 0x4000000000000005L, 1L << 32, m.get("ids"),
                        0.5), "x");
        add("philox", arrays("g", gaussian(p, 1)),
                (k, m) -> k.addPhiloxGaussian(m.get("g"), p, 0x9E3779B97F4A7C15L, 0xFFFFFFFF00000007L, 1.5f), "g");

        Map<String, float[]> fromCpp = runCpp(gxx, dir);
        int compared = 0;
        for (Case c : cases) {
            JavaBackend backend = new JavaBackend();
            Map<String, DeviceArray> onJava = new LinkedHashMap<>();
            c.arrays().forEach((name, values) -> {
                DeviceArray a = backend.allocate(values.length);
                backend.upload(values, 0, a);
                onJava.put(name, a);
            });
            c.java().accept(onJava);
            for (String out : c.outputs()) {
                float[] expected = new float[(int) onJava.get(out).length()];
                backend.download(onJava.get(out), expected, 0);
                float[] got = fromCpp.get(c.name() + "." + out);
                assertEquals(expected.length, got == null ? -1 : got.length, c.name() + "." + out + ": values written");
                for (int i = 0; i < expected.length; i++) {
                    float tolerance = 1e-6f * Math.max(1f, Math.abs(expected[i]));
                    assertTrue(Math.abs(expected[i] - got[i]) <= tolerance || Float.compare(expected[i], got[i]) == 0,
                            c.name() + "." + out + "[" + i + "]: Java " + expected[i] + ", CUDA source " + got[i]);
                    compared++;
                }
            }
        }
        assertTrue(compared > 5000, "compared " + compared + " values");
    }

    private Map<String, float[]> runCpp(Path gxx, Path dir) throws Exception {
        Files.writeString(dir.resolve("shim.h"), SHIM);
        Files.writeString(dir.resolve(KernelSource.NAME), KernelSource.text());
        StringBuilder main = new StringBuilder("#include \"shim.h\"\n#include \"" + KernelSource.NAME + "\"\nint main() {\n");
        for (Case c : cases) {
            main.append("  {\n");
            c.arrays().forEach((name, values) -> main.append("    static float ").append(name).append("[] = {")
                    .append(join(values)).append("};\n"));
            for (String launch : c.launches()) {   // in order, each over the whole grid (the stream's order)
                main.append("    EMULATE(").append(launch).append(");\n");
            }
            for (String out : c.outputs()) {
                main.append("    dump(\"").append(c.name()).append('.').append(out).append("\", ").append(out).append(", ")
                        .append(c.arrays().get(out).length).append(");\n");
            }
            main.append("  }\n");
        }
        main.append("  return 0;\n}\n");
        Files.writeString(dir.resolve("driver.cpp"), main.toString());
        String build = run(dir, gxx.toString(), "-std=c++17", "-O1", "-ffp-contract=off", "-fno-fast-math", "-Wall",
                "-Wno-unused-function", "-Werror=conversion", "-o", "emulated", "driver.cpp");
        Map<String, List<Float>> values = new LinkedHashMap<>();
        for (String line : run(dir, dir.resolve("emulated").toString()).split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length == 3) {
                values.computeIfAbsent(f[0], k -> new ArrayList<>()).add((float) Double.parseDouble(f[2]));
            }
        }
        assertTrue(!values.isEmpty(), "the emulated kernels printed nothing; compiler said:\n" + build);
        Map<String, float[]> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            float[] a = new float[v.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = v.get(i);
            }
            out.put(k, a);
        });
        return out;
    }

    private static String run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + text);
        return text;
    }

    /** A case whose C++ call is what the CUDA backend's launch of {@code call} passes, array arguments by name. */
    private void add(String name, Map<String, float[]> arrays, KernelsCall call, String... outputs) {
        List<String> cpp = org.dpdl4j.cuda.device.LaunchText.of(k -> call.on(k, placeholders(arrays.keySet())));
        cases.add(new Case(name.replace('.', '_').replace('-', 'm'), arrays, cpp, m -> call.on(kernels, m), List.of(outputs)));
    }

    private static Map<String, DeviceArray> placeholders(java.util.Set<String> names) {
        Map<String, DeviceArray> m = new LinkedHashMap<>();
        names.forEach(n -> m.put(n, org.dpdl4j.cuda.device.LaunchText.named(n)));
        return m;
    }

    private static Map<String, float[]> arrays(Object... nameThenValues) {
        Map<String, float[]> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenValues.length; i += 2) {
            m.put((String) nameThenValues[i], (float[]) nameThenValues[i + 1]);
        }
        return m;
    }

    private float[] gaussian(int count, double scale) {
        float[] v = new float[count];
        for (int i = 0; i < count; i++) {
            v[i] = (float) (scale * Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble()));
        }
        return v;
    }

    private float[] uniform(int count, double scale) {
        float[] v = new float[count];
        for (int i = 0; i < count; i++) {
            v[i] = (float) (scale * random.nextDouble());
        }
        return v;
    }

    private float[] activated(Activation f, int count) {
        float[] v = gaussian(count, 2);
        for (int i = 0; i < count; i++) {
            v[i] = f.apply(v[i]);
        }
        return v;
    }

    private float[] labels(int b, int n, boolean soft) {
        float[] y = new float[b * n];
        for (int i = 0; i < b; i++) {
            if (soft) {
                for (int k = 0; k < n; k++) {
                    y[i * n + k] = (float) random.nextDouble();
                }
            } else {
                y[i * n + random.nextInt(n)] = 1f;
            }
        }
        return y;
    }

    private float[] binary(int count, boolean soft) {
        float[] y = new float[count];
        for (int i = 0; i < count; i++) {
            y[i] = soft ? (float) random.nextDouble() : random.nextBoolean() ? 1f : 0f;
        }
        return y;
    }

    private static String join(float[] values) {
        StringBuilder s = new StringBuilder();
        for (float v : values) {
            s.append(lit(v)).append(',');
        }
        return s.length() == 0 ? "0" : s.substring(0, s.length() - 1);
    }

    /** A float literal C++ reads back exactly. */
    private static String lit(float v) {
        return Float.toHexString(v).toLowerCase(Locale.ROOT) + "f";
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
