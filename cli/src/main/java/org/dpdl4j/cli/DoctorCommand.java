package org.dpdl4j.cli;

import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.DatasetVerifier;
import org.dpdl4j.data.catalog.FileReport;
import org.dpdl4j.data.catalog.FileStatus;
import org.dpdl4j.experiments.diagnostics.Bytes;
import org.dpdl4j.experiments.diagnostics.Diagnosis;
import org.dpdl4j.experiments.diagnostics.RuntimeFacts;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DeviceEngine;
import org.dpdl4j.optim.DeviceEngines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code dpdl4j doctor}: what dpdl4j runs on (Java, the ND4J backend and its devices, BLAS, OpenMP threads, heap and
 * off-heap limits, dpdl4j's CUDA engine: the GPU, its driver, the CUDA libraries found, whether it is usable), the data
 * directory with the state of every data set, and the settings known to hurt.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Print the ND4J backend and its devices, BLAS, OpenMP threads, heap and off-heap limits, whether dpdl4j's CUDA engine can run (GPU, driver, CUDA libraries), the data "
                + "directory and which data sets are present and verified, and warn about settings known to hurt.",
            "Exit status 0, or 1 when a data file does not match the catalog's SHA-256."})
public final class DoctorCommand implements Callable<Integer> {
    @Mixin
    DataDirOption data;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        RuntimeFacts f = RuntimeFacts.probe();
        out.println("Java        " + f.javaVersion() + " (" + f.javaVm() + ") at " + f.javaHome());
        out.println("ND4J        " + (f.cpuBackend() ? "CPU" : "CUDA") + " backend (" + f.backend() + ")");
        for (String device : f.devices()) {
            out.println("  device    " + device);
        }
        out.println("BLAS        " + f.blasVendor());
        out.println("OpenMP      " + f.ompThreads() + " thread" + (f.ompThreads() == 1 ? "" : "s") + " (OMP_NUM_THREADS="
                + (f.ompThreadsVariable() == null ? "unset" : f.ompThreadsVariable()) + "), " + f.cores() + " cores");
        out.println("Memory      heap up to " + Bytes.format(f.heapMax()) + "; native memory up to " + Bytes.format(f.offHeapMax())
                + " (org.bytedeco.javacpp.maxbytes); whole process up to " + (f.physicalMax() > 0 ? Bytes.format(f.physicalMax())
                : "unlimited") + " (maxphysicalbytes); machine " + Bytes.format(f.machineMemory()) + ", "
                + Bytes.format(f.availableMemory()) + " available");
        for (DeviceEngine engine : DeviceEngines.installed()) {
            DeviceEngine.Report r = engine.report();
            out.println(String.format("%-12s", engine.device().kind() + " engine") + (r.usable()
                    ? "usable: dp-sgd's private step runs on the GPU (--device auto or " + engine.device().label()
                            + ", or " + engine.device().label() + ":N for GPU N below; convolutional networks need cuDNN,"
                            + " below)"
                    : "not usable: " + r.problem()));
            for (String fact : r.facts()) {
                out.println("  " + fact);
            }
        }
        if (DeviceEngines.find(ComputeDevice.CUDA).isEmpty()) {
            out.println("CUDA engine not installed (module dpdl4j-cuda); dp-sgd clips per example on the CPU");
        }
        out.println();

        DataDirectory dir = data.resolve();
        out.println("Data        " + dir.describe());
        boolean mismatch = false;
        if (!Files.isDirectory(dir.path())) {
            out.println("  It does not exist: " + dir.howToChange() + ", or fetch a data set with 'dpdl4j datasets fetch NAME'."
                    + " Synthetic tasks need no data.");
        } else {
            List<FileReport> reports = new DatasetVerifier(dir).verifyAll();
            out.print(DatasetVerifier.table(reports));
            mismatch = reports.stream().anyMatch(r -> r.status() == FileStatus.MISMATCH);
        }
        out.println();

        List<String> warnings = Diagnosis.warnings(f);
        if (mismatch) {
            warnings = new java.util.ArrayList<>(warnings);
            warnings.add("some data files do not match the catalog's SHA-256 (MISMATCH above): they are damaged or other"
                    + " files; move them away and fetch them again with 'dpdl4j datasets fetch NAME'.");
        }
        if (warnings.isEmpty()) {
            out.println("No problems found.");
        } else {
            out.println("Warnings");
            for (String w : warnings) {
                out.println("  - " + w);
            }
        }
        out.flush();
        return mismatch ? 1 : 0;
    }
}
