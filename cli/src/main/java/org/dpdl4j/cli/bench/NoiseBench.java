package org.dpdl4j.cli.bench;

import org.dpdl4j.cli.Converters;

import org.dpdl4j.experiments.bench.PairedTiming;

import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SecureNoiseSource;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.dpdl4j.privacy.noise.StreamCipher;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;

/** Time per 100,000 Gaussians: the secure sources, the seeded source, and java.util.Random as the yardstick. */
@Command(name = "noise", mixinStandardHelpOptions = true,
        description = "Milliseconds per 100k Gaussians added to a FLOAT array: secure (AES-256-CTR, ChaCha20), seeded, java.util.Random.")
final class NoiseBench implements Callable<Integer> {
    @Option(converter = Converters.PositiveInt.class, names = "--blocks", defaultValue = "11", description = "Measurement blocks; default ${DEFAULT-VALUE}.")
    int blocks;

    @Override
    public Integer call() {
        int n = 100_000;
        INDArray target = Nd4j.zeros(DataType.FLOAT, n);
        SecureNoiseSource aes = SecureNoiseSource.fromSecureRandom(StreamCipher.AES_256_CTR);
        SecureNoiseSource chacha = SecureNoiseSource.fromSecureRandom(StreamCipher.CHACHA20);
        SeededNoiseSource seeded = SeededNoiseSource.forKey(new NoiseKey(1, "bench", 0, 0));
        Random random = new Random(1);
        float[] buffer = new float[n];
        Runnable javaRandom = () -> {
            for (int i = 0; i < n; i++) {
                buffer[i] = (float) random.nextGaussian();
            }
            target.addi(Nd4j.createFromArray(buffer));
        };
        String[] names = {"secure AES-256-CTR", "secure ChaCha20", "seeded (no mitigation)", "java.util.Random"};
        Runnable[] ops = {() -> aes.addGaussian(target, 1.0), () -> chacha.addGaussian(target, 1.0),
                () -> seeded.addGaussian(target, 1.0), javaRandom};
        double[][] t = new double[ops.length][blocks];
        for (int w = 0; w < 20; w++) {
            for (Runnable op : ops) {
                op.run();
            }
        }
        for (int k = 0; k < blocks; k++) {
            for (int j = 0; j < ops.length; j++) {
                t[j][k] = PairedTiming.time(ops[j], 10);
            }
        }
        double base = PairedTiming.median(t[3]);
        System.out.println("ms per 100k Gaussians (median of " + blocks + " blocks), and relative to java.util.Random:");
        for (int j = 0; j < ops.length; j++) {
            double m = PairedTiming.median(t[j]);
            System.out.printf(Locale.ROOT, "  %-22s %7.3f ms   x%.2f%n", names[j], m, m / base);
        }
        return 0;
    }
}
