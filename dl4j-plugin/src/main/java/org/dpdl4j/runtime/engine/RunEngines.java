package org.dpdl4j.runtime.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DeviceRun;
import org.dpdl4j.optim.DeviceUnavailableException;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The engines by name: {@code local}, built in, and every {@link RunEngine} on the class path. {@link #place} puts a
 * run on the engine its settings name.
 */
public final class RunEngines {
    /** The engine of one process, the default. */
    public static final String LOCAL = "local";

    private RunEngines() {
    }

    /** The installed engines other than {@code local}. */
    public static List<RunEngine> installed() {
        List<RunEngine> out = new ArrayList<>();
        ServiceLoader.load(RunEngine.class, RunEngines.class.getClassLoader()).forEach(out::add);
        return out;
    }

    /** Every engine's name, {@code local} first. */
    public static List<String> names() {
        List<String> out = new ArrayList<>(List.of(LOCAL));
        installed().forEach(e -> out.add(e.name()));
        return out;
    }

    /** The installed engine of this name. */
    public static Optional<RunEngine> find(String name) {
        return installed().stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** The name, normalised, when an engine has it; else an error naming the engines there are. */
    static String checkName(String text) {
        String name = text.trim().toLowerCase(Locale.ROOT);
        if (!names().contains(name)) {
            throw new IllegalArgumentException("no engine '" + name + "' is installed; the engines are " + String.join(", ", names())
                    + (name.equals("spark") ? " (the spark engine comes with the dpdl4j-spark module: put it on the class path)" : ""));
        }
        return name;
    }

    /**
     * Checks that the engine options fit together: an option an engine declares needs that engine, and a GPU named by
     * number ({@code --device cuda:N}) needs the local engine (blocks take the GPUs their cluster assigns). Cheap; callers
     * run it before any work.
     *
     * @throws InvalidOptionException naming the option and the fix
     */
    public static void check(RunSettings settings) {
        String chosen = settings.get(EngineOptions.ENGINE, LOCAL);
        ComputeDevice device = ComputeDevice.parse(settings.get(EngineOptions.DEVICE, "auto"));
        if (!chosen.equals(LOCAL) && device.gpu().isPresent()) {
            throw EngineOptions.DEVICE.invalid(org.dpdl4j.optim.BlockDevice.numberedGpuRefusal(device));
        }
        for (RunEngine engine : installed()) {
            if (engine.name().equals(chosen)) {
                continue;
            }
            for (RunOption<?> o : engine.options()) {
                if (settings.has(o)) {
                    throw o.invalid(o.flag() + " " + settings.texts().get(o.name()) + " has no effect with --engine " + chosen
                            + (chosen.equals(LOCAL) ? " (the default)" : "") + "; add --engine " + engine.name()
                            + ", or drop " + o.flag());
                }
            }
        }
    }

    /** The option of an installed engine by name, e.g. {@code master}; empty when no installed engine reads it. */
    public static Optional<RunOption<?>> option(String name) {
        return installed().stream().flatMap(e -> e.options().stream()).filter(o -> o.name().equals(name)).findFirst();
    }

    /**
     * Connects to the engine {@code settings} name, for callers that run several runs on it ({@link BlockEngine#lent()});
     * empty for the local engine. The caller closes it.
     *
     * @throws InvalidOptionException for engine options that do not fit or a cluster that cannot be reached
     */
    public static Optional<BlockEngine> connect(RunSettings settings, String purpose) {
        check(settings);
        String name = settings.get(EngineOptions.ENGINE, LOCAL);
        if (name.equals(LOCAL)) {
            return Optional.empty();
        }
        RunEngine engine = find(name).orElseThrow(() -> EngineOptions.ENGINE.invalid("no engine '" + name + "' is installed"));
        return Optional.of(engine.connect(settings, purpose));
    }

    /**
     * Puts a run on the engine {@code settings} name: the local engine leaves it as it is, another one connects and
     * {@link DistributableRun#distribute distributes} it (the run then owns the connection). Returns the run.
     *
     * @throws InvalidOptionException for engine options that do not fit: a cluster option with the local engine, a
     *                                protocol the engine cannot distribute, a cluster that cannot be reached
     */
    public static TrainingRun place(TrainingRun run, RunSettings settings) {
        check(settings);
        String name = settings.get(EngineOptions.ENGINE, LOCAL);
        if (name.equals(LOCAL)) {
            placeOnDevice(run, settings);
            return run;
        }
        ProtocolRegistry registry = ProtocolRegistry.standard();
        boolean registered = registry.contains(run.protocol());
        boolean declared = registered ? registry.get(run.protocol()).splitsIntoBlocks() : run instanceof DistributableRun;
        if (!declared) {
            throw EngineOptions.ENGINE.invalid("--engine " + name + " runs the protocols whose parties split into blocks ("
                    + String.join(", ", splitting(registry)) + "); " + run.protocol() + " runs on --engine local only");
        }
        if (!(run instanceof DistributableRun distributable)) {
            throw new IllegalStateException("protocol " + run.protocol() + " declares that it splits into blocks, but its run ("
                    + run.getClass().getName() + ") is not a DistributableRun: implement it, or drop the declaration");
        }
        BlockEngine engine = connect(settings, "dpdl4j " + run.protocol()).orElseThrow();
        try {
            // --device travels to the blocks: each chooses its device where it runs
            distributable.distribute(engine, ComputeDevice.parse(settings.get(EngineOptions.DEVICE, "auto")));
        } catch (Exception e) {   // a cluster may throw what Java calls checked (SparkException) from unchecked code
            engine.close();   // the run refused it (e.g. more blocks than parties), so it does not own it
            Optional<DeviceUnavailableException> refused = deviceRefusal(e);
            if (refused.isPresent()) {
                throw EngineOptions.DEVICE.invalid(refused.get().getMessage());
            }
            throw e;
        }
        return run;
    }

    /** The device refusal behind a failure to start blocks (a cluster wraps what its executors threw), if any. */
    private static Optional<DeviceUnavailableException> deviceRefusal(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof DeviceUnavailableException refused) {
                return Optional.of(refused);
            }
        }
        return Optional.empty();
    }

    /**
     * Moves a run's per-example clipping to the device {@code --device} names ({@code auto} leaves the run's own
     * choice, which is also auto).
     *
     * @throws InvalidOptionException when the device cannot compute the run here, or the protocol has no device choice
     */
    private static void placeOnDevice(TrainingRun run, RunSettings settings) {
        ComputeDevice device = ComputeDevice.parse(settings.get(EngineOptions.DEVICE, "auto"));
        if (device == ComputeDevice.AUTO) {
            return;
        }
        if (run instanceof DeviceRun d) {
            try {
                d.useDevice(device);
            } catch (DeviceUnavailableException e) {
                throw EngineOptions.DEVICE.invalid(e.getMessage());
            }
        } else if (device != ComputeDevice.CPU) {
            throw EngineOptions.DEVICE.invalid("--device " + device.label() + " moves dp-sgd's per-example clipping and the"
                    + " rounds of the decentralized protocols (dsgd, decor, ldp, cdp) and the federated clients' local steps (fedavg,"
                    + " dp-fedavg-local, dp-fedavg-central, gopa) and DP-mu^2-FL's machines (mu2-sgd, mu2-untrusted, mu2-trusted); " + run.protocol() + " runs on the CPU:"
                    + " drop --device");
        }
    }

    /** The registered protocols that declare their parties split into blocks, in registration order. */
    public static List<String> splitting(ProtocolRegistry registry) {
        return registry.all().stream().filter(Protocol::splitsIntoBlocks).map(Protocol::name).toList();
    }

    /** How a run's rounds are computed, for its configuration: {@code local}, or the engine's description. */
    public static String describe(TrainingRun run) {
        return run instanceof DistributableRun d && d.engine() != null ? d.engine().describe() : LOCAL;
    }

    /** {@code settings} without the engine options (what a protocol and its checkpoint see). */
    public static RunSettings withoutEngine(RunSettings settings) {
        RunSettings r = settings;
        for (RunOption<?> o : EngineOptions.all()) {
            r = r.without(o);
        }
        return r;
    }
}
