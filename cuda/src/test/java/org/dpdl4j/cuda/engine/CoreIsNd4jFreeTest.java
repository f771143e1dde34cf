package org.dpdl4j.cuda.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine's core, the CUDA backend and the device check refer to no class of ND4J, DL4J, dpdl4j's core or SLF4J:
 * the device check's bundle carries none of them (ND4J's natives alone exceed its size limit).
 */
class CoreIsNd4jFreeTest {
    private static final String[] FORBIDDEN = {"org/nd4j/", "org/deeplearning4j/", "org/dpdl4j/optim/",
        "org/dpdl4j/privacy/", "org/slf4j/", "org/dpdl4j/cuda/dl4j/"};

    @Test
    void coreBackendAndCheckUseNoNd4j() throws IOException, URISyntaxException {
        Path classes = Path.of(DenseDpStep.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> offending = new ArrayList<>();
        for (String pkg : new String[]{"org/dpdl4j/cuda/engine", "org/dpdl4j/cuda/device", "org/dpdl4j/cuda/check"}) {
            Path dir = classes.resolve(pkg);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                    String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                    for (String forbidden : FORBIDDEN) {
                        if (text.contains(forbidden)) {
                            offending.add(classes.relativize(f) + " refers to " + forbidden);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), offending);
    }
}
