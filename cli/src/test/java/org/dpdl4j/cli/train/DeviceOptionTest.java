package org.dpdl4j.cli.train;

import org.dpdl4j.data.RealData;
import org.dpdl4j.data.catalog.DatasetCatalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Path;
import org.dpdl4j.cli.CommandRun;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DeviceEngines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code train --device}: cpu trains as before (dp-sgd, and a decentralized run), cuda and cuda:N are refused before
 * training with what is missing and the fix when the CUDA engine cannot run (for dp-sgd and for a decentralized run, whose
 * node models it would keep), Spark's blocks refuse a GPU number, and a protocol without a device choice refuses cuda.
 */
class DeviceOptionTest {

    @Test
    void cpuTrainsDpSgd(@TempDir Path dir) {
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "dp-sgd", "--clip", "1", "--epsilon", "1",
                "--epochs", "0.2", "--device", "cpu", "--out", dir.resolve("run").toString());
        assertEquals(0, r.exitCode(), r.both());
    }

    @Test
    void cudaWithoutAUsableGpuIsRefusedSayingWhy(@TempDir Path dir) {
        assumeFalse(DeviceEngines.find(ComputeDevice.CUDA).orElseThrow().report().usable(),
                "checks the refusal on a machine without a usable CUDA GPU; this one has one");
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "dp-sgd", "--clip", "1", "--epsilon", "1",
                "--device", "cuda", "--out", dir.resolve("run").toString());
        assertRefused(r, "--device cuda: ", "or use --device cpu");
        assertTrue(r.err().contains("driver") || r.err().contains("LD_LIBRARY_PATH"), r.both());
    }

    @Test
    void decentralizedRunsTakeTheDeviceOption(@TempDir Path dir) {
        CommandRun cpu = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "5",
                "--epsilon", "5", "--clip", "1", "--noise", "seeded", "--device", "cpu", "--out", dir.resolve("cpu").toString());
        assertEquals(0, cpu.exitCode(), cpu.both());
        assumeFalse(DeviceEngines.find(ComputeDevice.CUDA).orElseThrow().report().usable(),
                "checks the refusal on a machine without a usable CUDA GPU; this one has one");
        CommandRun cuda = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "5",
                "--epsilon", "5", "--clip", "1", "--device", "cuda", "--out", dir.resolve("cuda").toString());
        assertRefused(cuda, "--device cuda: ", "or use --device cpu");
        assertTrue(cuda.err().contains("driver") || cuda.err().contains("LD_LIBRARY_PATH"), cuda.both());
    }

    @Test
    void federatedRunsTakeTheDeviceOption(@TempDir Path dir) {
        RealData.file(DatasetCatalog.A9A_TRAIN);
        String data = RealData.directory().path().toString();
        CommandRun cpu = CommandRun.of("train", "--algo", "dp-fedavg-central", "--dataset", "a9a", "--data-dir", data,
                "--machines", "5", "--rounds", "2", "--batch-size", "16", "--clip", "1", "--epsilon", "2", "--device", "cpu",
                "--out", dir.resolve("cpu").toString());
        assertEquals(0, cpu.exitCode(), cpu.both());
        assumeFalse(DeviceEngines.find(ComputeDevice.CUDA).orElseThrow().report().usable(),
                "checks the refusal on a machine without a usable CUDA GPU; this one has one");
        CommandRun cuda = CommandRun.of("train", "--algo", "dp-fedavg-central", "--dataset", "a9a", "--data-dir", data,
                "--machines", "5", "--rounds", "2", "--batch-size", "16", "--clip", "1", "--epsilon", "2", "--device", "cuda",
                "--out", dir.resolve("cuda").toString());
        assertRefused(cuda, "--device cuda: ", "or use --device cpu");
    }

    @Test
    void sparkBlocksTakeTheDeviceOption(@TempDir Path dir) {
        CommandRun cpu = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "2",
                "--epsilon", "5", "--clip", "1", "--noise", "seeded", "--engine", "spark", "--master", "local[1]", "--blocks", "2",
                "--device", "cpu", "--out", dir.resolve("cpu").toString());
        assertEquals(0, cpu.exitCode(), cpu.both());
        RealData.file(DatasetCatalog.A9A_TRAIN);
        String data = RealData.directory().path().toString();
        assumeFalse(DeviceEngines.find(ComputeDevice.CUDA).orElseThrow().report().usable(),
                "checks the refusal on a machine without a usable CUDA GPU; this one has one");
        CommandRun cuda = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "2",
                "--epsilon", "5", "--clip", "1", "--noise", "seeded", "--engine", "spark", "--master", "local[1]", "--blocks", "2",
                "--device", "cuda", "--out", dir.resolve("cuda").toString());
        assertRefused(cuda, "--device cuda: ", "or use --device cpu");
        // the FedAvg family's and mu2's blocks take a GPU each too: refused on the executor that has none, as decor's
        CommandRun fedavg = CommandRun.of("train", "--algo", "fedavg", "--dataset", "a9a", "--data-dir", data,
                "--machines", "5", "--rounds", "1", "--batch-size", "16", "--engine", "spark", "--master", "local[1]",
                "--device", "cuda", "--out", dir.resolve("fedavg").toString());
        assertRefused(fedavg, "--device cuda: ", "or use --device cpu");
        CommandRun mu2 = CommandRun.of("train", "--algo", "mu2-untrusted", "--dataset", "a9a", "--data-dir", data,
                "--machines", "5", "--rounds", "1", "--batch-size", "16", "--epsilon", "2", "--engine", "spark", "--master",
                "local[1]", "--device", "cuda", "--out", dir.resolve("mu2").toString());
        assertRefused(mu2, "--device cuda: ", "or use --device cpu");
    }

    @Test
    void aProtocolWithoutADeviceChoiceRefusesCuda(@TempDir Path dir) {
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "sgd", "--device", "cuda",
                "--out", dir.resolve("run").toString());
        assertRefused(r, "sgd runs on the CPU: drop --device");
    }

    @Test
    void aNumberedGpuWithoutAUsableGpuIsRefusedSayingWhy(@TempDir Path dir) {
        assumeFalse(DeviceEngines.find(ComputeDevice.CUDA).orElseThrow().report().usable(),
                "checks the refusal on a machine without a usable CUDA GPU; this one has one");
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "dp-sgd", "--clip", "1", "--epsilon", "1",
                "--device", "cuda:3", "--out", dir.resolve("run").toString());
        assertRefused(r, "--device cuda:3: ", "or use --device cpu");
    }

    /** Blocks take the GPU Spark assigns their task, or spread over their worker's: one GPU number cannot place them. */
    @Test
    void sparkBlocksRefuseANumberedGpu(@TempDir Path dir) {
        CommandRun r = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "2",
                "--epsilon", "5", "--clip", "1", "--noise", "seeded", "--engine", "spark", "--master", "local[1]", "--blocks", "2",
                "--device", "cuda:1", "--out", dir.resolve("run").toString());
        assertRefused(r, "--device cuda:1 names one GPU of this machine", "use --device cuda");
    }

    @Test
    void aMalformedGpuNumberIsRefused(@TempDir Path dir) {
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--device", "cuda:first", "--out",
                dir.resolve("run").toString());
        assertRefused(r, "cuda:first", "e.g. cuda:1");
    }

    @Test
    void anUnknownDeviceIsRefused(@TempDir Path dir) {
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--device", "tpu", "--out", dir.resolve("run").toString());
        assertRefused(r, "tpu", "auto, cpu, cuda or cuda:N");
    }

    /** A command refused before it ran (exit status 2) with an error that says each of {@code said}. */
    private static void assertRefused(CommandRun r, String... said) {
        assertEquals(2, r.exitCode(), r.both());
        for (String part : said) {
            assertTrue(r.err().contains(part), "the refusal does not say '" + part + "': " + r.both());
        }
    }
}
