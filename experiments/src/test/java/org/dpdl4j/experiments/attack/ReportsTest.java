package org.dpdl4j.experiments.attack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.image.ImageGrid;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.attacks.inversion.DlgConfig;
import org.dpdl4j.attacks.inversion.IdlgAttack;
import org.dpdl4j.models.ImageShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** JSON, CSV and the PNG grid of real results on a synthetic 28x28 image. */
class ReportsTest {

    private static GroundTruth stripe() {
        double[] pixels = new double[784];
        for (int i = 0; i < 28; i++) {
            for (int j = 0; j < 28; j++) {
                pixels[i * 28 + j] = (j >= 10 && j < 18) ? 0.9 : 0.05 * (i % 3);
            }
        }
        return new GroundTruth(Nd4j.create(pixels, new long[] {1, 784}, DataType.FLOAT), new int[] {4},
                ImageShape.MNIST, InputNormalization.NONE);
    }

    @Test
    void jsonCsvAndGridOfAnOptimisationAttack(@TempDir Path dir) throws Exception {
        MultiLayerNetwork net = AttackModels.zeroSoftmaxRegression(DataType.FLOAT);
        AttackCase c = AttackModels.fedAvgCase(net, stripe(), 0.1);
        AttackResult result = new IdlgAttack(DlgConfig.defaults().withIterations(20)).attack(c);

        Path json = dir.resolve("out/result.json");
        ResultJson.write(result, json);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals("idlg", root.get("attack").asText());
        assertEquals("fedavg", root.get("provenance").get("protocol").asText());
        assertEquals("server", root.get("provenance").get("observer").asText());
        assertEquals("0.1", root.get("provenance").get("details").get("learning_rate").asText());
        assertEquals(result.psnr(), root.get("psnr").asDouble(), 1e-9);
        assertEquals(4, root.get("images").get(0).get("true_label").asInt());
        assertEquals(3, root.get("snapshots").size(), "iterations 0, 10, 20");
        assertEquals("NaN", root.get("provenance").get("model_accuracy").asText());
        assertTrue(root.get("timing").get("evaluations").asLong() > 0);

        Path csv = dir.resolve("trace.csv");
        ResultCsv.writeSnapshots(result, csv);
        List<String> lines = Files.readAllLines(csv);
        assertEquals("iteration,evaluations,matching_loss,mse,psnr,ssim", lines.get(0));
        assertEquals(4, lines.size());
        assertTrue(lines.get(3).startsWith("20,"));
        assertEquals(15, ResultCsv.summaryRow(result).split(",").length);
        assertEquals(15, ResultCsv.SUMMARY_HEADER.split(",").length);

        Path png = dir.resolve("grid.png");
        new ImageGrid(List.of(0, 10, 20), 3).writePng(result, png);
        BufferedImage image = ImageIO.read(png.toFile());
        // Columns: original, iterations 0, 10, 20 (the last snapshot is the final result).
        assertTrue(image.getWidth() >= 96 + 4 * 84, "width " + image.getWidth());
        assertTrue(image.getHeight() >= 84, "height " + image.getHeight());
        int x = 8 + 96 + 3 * 14 + 1;
        int y = image.getHeight() - 8 - 84 - 16 - 4 + 3 * 14 + 1;
        int stripeGrey = image.getRGB(x, y) & 0xFF;
        assertTrue(stripeGrey > 200, "the original's bright stripe is drawn, got grey " + stripeGrey);
    }

    @Test
    void infiniteMetricsAreWrittenAsStrings(@TempDir Path dir) throws Exception {
        MultiLayerNetwork net = AttackModels.zeroSoftmaxRegression(DataType.DOUBLE);
        GroundTruth truth = stripe();
        GroundTruth exactInputs = new GroundTruth(truth.inputs().castTo(DataType.DOUBLE), truth.labels(),
                truth.shape(), truth.normalization());
        AttackResult result = new AnalyticInversion().attack(AttackModels.centralCase(net, exactInputs, 0.0));
        JsonNode root = ResultJson.toJson(result);
        assertTrue(result.mse() < 1e-12, "exact reconstruction");
        if (Double.isInfinite(result.psnr())) {
            assertEquals("Infinity", root.get("psnr").asText());
        }
        assertEquals("closed_form", root.get("stop_reason").asText());
        assertEquals(0, root.get("snapshots").size());
        new ImageGrid(ImageGrid.DEFAULT_ITERATIONS, 2).writePng(result, dir.resolve("analytic.png"));
        assertTrue(Files.size(dir.resolve("analytic.png")) > 0);
    }
}
