package org.dpdl4j.cli.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpdl4j train --model cnn}: private training of the CNN on MNIST, and where the CNN does not apply. */
class CnnTrainCommandTest {

    private static String dataDir() {
        return CommandRun.realDataDir("training the CNN on MNIST");
    }

    @Test
    void aShortPrivateRunOfTheCnnSavesAConvolutionalModelWithinItsBudget(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("cnn");
        CommandRun r = CommandRun.of("train", "--algo", "dp-sgd", "--dataset", "mnist", "--model", "cnn", "--epsilon", "3",
                "--clip", "0.1", "--batch-size", "512", "--epochs", "0.05", "--lr", "0.5", "--updater", "momentum",
                "--noise", "seeded", "--data-dir", dataDir(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        MultiLayerNetwork net = ModelSerializer.restoreMultiLayerNetwork(out.resolve("model.zip").toFile());
        assertTrue(net.getLayerWiseConfigurations().getConf(0).getLayer() instanceof ConvolutionLayer);
        assertEquals(26_010, net.numParams());
        JsonNode config = new ObjectMapper().readTree(out.resolve("config.json").toFile());
        assertEquals("cnn", config.get("config").get("workload").get("model").asText());
        assertTrue(Files.readString(out.resolve("privacy.txt")).contains("per-example clip C = 0.1"));
    }

    @Test
    void theCnnTakesImagesOnlyAndTheStackedProtocolsRefuseIt(@TempDir Path tmp) {
        CommandRun a9a = CommandRun.of("train", "--dataset", "a9a", "--model", "cnn", "--data-dir", dataDir(),
                "--out", tmp.resolve("a").toString());
        assertEquals(2, a9a.exitCode(), a9a.both());
        assertTrue(a9a.both().contains("--model cnn takes images"), a9a.both());
        CommandRun decor = CommandRun.of("train", "--algo", "decor", "--dataset", "mnist", "--model", "cnn", "--epsilon", "3",
                "--clip", "1", "--rounds", "2", "--nodes", "4", "--data-dir", dataDir(), "--out", tmp.resolve("d").toString());
        assertTrue(decor.exitCode() != 0, decor.both());
        assertTrue(decor.both().contains("train the CNN centrally"), decor.both());
    }
}
