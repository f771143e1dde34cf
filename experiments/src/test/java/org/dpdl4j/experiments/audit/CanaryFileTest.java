package org.dpdl4j.experiments.audit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CanaryFileTest {

    @Test
    void readsBackWhatItWrites(@TempDir Path tmp) throws Exception {
        CanaryFile file = new CanaryFile(new boolean[]{true, false, true}, new double[]{0.1, -2.5e-7, 1.0 / 3});
        Path csv = tmp.resolve("canaries.csv");
        Files.writeString(csv, file.text());
        CanaryFile back = CanaryFile.read(csv);
        assertArrayEquals(file.coins(), back.coins());
        assertArrayEquals(file.scores(), back.scores(), 0.0);
    }

    @Test
    void refusesAFileItDidNotWriteNamingTheLine(@TempDir Path tmp) throws Exception {
        String[][] cases = {
                {"a,b,c\n", "line 1: expected the header"},
                {"canary,included,score\n0,2,0.5\n", "line 2: included must be 0 or 1"},
                {"canary,included,score\n0,1,0.5\n2,0,0.1\n", "line 3: expected canary 1"},
                {"canary,included,score\n0,1,x\n", "line 2: score 'x' is not a number"},
                {"canary,included,score\n0,1\n", "line 2: expected 3 fields"},
                {"canary,included,score\n", "holds no canary rows"},
        };
        for (String[] c : cases) {
            Path csv = tmp.resolve("c.csv");
            Files.writeString(csv, c[0]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CanaryFile.read(csv));
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
    }
}
