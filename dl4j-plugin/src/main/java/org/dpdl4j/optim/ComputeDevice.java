package org.dpdl4j.optim;

import java.util.Locale;
import java.util.OptionalInt;

/**
 * Where a private step's per-example clipping runs: {@link #AUTO} (the default) takes an installed GPU engine when it can
 * run here and computes the network, the CPU otherwise; {@link #CPU} always the CPU; {@link #CUDA} dpdl4j's CUDA engine
 * (module dpdl4j-cuda) on the machine's first usable GPU, {@link #cuda(int) cuda(n)} on the GPU CUDA numbers n among
 * those it shows ({@code dpdl4j doctor} lists them; with {@code CUDA_DEVICE_ORDER=PCI_BUS_ID} they are
 * {@code nvidia-smi}'s indices), or a refusal that says what is missing.
 */
public final class ComputeDevice implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** The kinds of device: the automatic choice, the CPU, and CUDA GPUs. */
    public enum Kind {
        AUTO, CPU, CUDA
    }

    public static final ComputeDevice AUTO = new ComputeDevice(Kind.AUTO, -1);
    public static final ComputeDevice CPU = new ComputeDevice(Kind.CPU, -1);
    /** The CUDA engine on the first usable GPU. */
    public static final ComputeDevice CUDA = new ComputeDevice(Kind.CUDA, -1);

    private final Kind kind;
    /** The GPU's CUDA number, or -1 for the first usable one. */
    private final int gpu;

    private ComputeDevice(Kind kind, int gpu) {
        this.kind = kind;
        this.gpu = gpu;
    }

    /** The CUDA engine on the GPU CUDA numbers {@code gpu} (refused when it opens if that GPU is not usable here). */
    public static ComputeDevice cuda(int gpu) {
        if (gpu < 0) {
            throw new IllegalArgumentException("a GPU number is at least 0, got " + gpu);
        }
        return new ComputeDevice(Kind.CUDA, gpu);
    }

    /** The device a command line names: auto, cpu, cuda or cuda:N (any case). */
    public static ComputeDevice parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "auto":
                return AUTO;
            case "cpu":
                return CPU;
            case "cuda":
                return CUDA;
            default:
                break;
        }
        if (t.startsWith("cuda:")) {
            String number = t.substring("cuda:".length());
            if (number.matches("[0-9]{1,4}")) {
                return cuda(Integer.parseInt(number));
            }
            throw new IllegalArgumentException("unknown device '" + text + "': after cuda: comes a GPU's number as CUDA"
                    + " numbers them (0, 1, ...; dpdl4j doctor lists them), e.g. cuda:1");
        }
        throw new IllegalArgumentException("unknown device '" + text + "'; use auto, cpu, cuda or cuda:N (the GPU CUDA"
                + " numbers N)");
    }

    /** The kind of device. */
    public Kind kind() {
        return kind;
    }

    /** Whether this is dpdl4j's CUDA engine (on any GPU, or a numbered one). */
    public boolean isCuda() {
        return kind == Kind.CUDA;
    }

    /** The GPU's CUDA number when this names one ({@link #cuda(int)}); empty for the first usable GPU and the others. */
    public OptionalInt gpu() {
        return gpu < 0 ? OptionalInt.empty() : OptionalInt.of(gpu);
    }

    /** Where a single run's models go on a device engine: the GPU this names, else the engine's first usable one. */
    public DeviceSlot slot() {
        return gpu < 0 ? DeviceSlot.first() : DeviceSlot.assigned(gpu);
    }

    /** The name a command line uses: auto, cpu, cuda or cuda:N. */
    public String label() {
        return kind.name().toLowerCase(Locale.ROOT) + (gpu < 0 ? "" : ":" + gpu);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComputeDevice d && d.kind == kind && d.gpu == gpu;
    }

    @Override
    public int hashCode() {
        return kind.ordinal() * 31 + gpu;
    }

    @Override
    public String toString() {
        return label();
    }

    /** The shared constants stay the constants when read back (a run's plan that travels to a worker). */
    private Object readResolve() {
        return gpu >= 0 ? this : kind == Kind.AUTO ? AUTO : kind == Kind.CPU ? CPU : CUDA;
    }
}
