package org.dpdl4j.data.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void explicitWinsOverEnvironmentWhichWinsOverDefault() {
        Path home = tmp.resolve("home");
        Map<String, String> env = Map.of(DataDirectory.ENVIRONMENT_VARIABLE, tmp.resolve("env").toString());
        DataDirectory explicit = DataDirectory.resolve(tmp.resolve("opt"), env, home);
        assertEquals(tmp.resolve("opt"), explicit.path());
        assertEquals(DataDirectory.Source.EXPLICIT, explicit.source());
        DataDirectory fromEnv = DataDirectory.resolve(null, env, home);
        assertEquals(tmp.resolve("env"), fromEnv.path());
        assertEquals(DataDirectory.Source.ENVIRONMENT, fromEnv.source());
        DataDirectory byDefault = DataDirectory.resolve(null, Map.of(), home);
        assertEquals(home.resolve(".dpdl4j/data"), byDefault.path());
        assertEquals(DataDirectory.Source.DEFAULT, byDefault.source());
        assertTrue(fromEnv.describe().contains("from the environment variable DPDL4J_DATA"), fromEnv.describe());
        assertTrue(byDefault.describe().contains("neither --data-dir nor DPDL4J_DATA"), byDefault.describe());
    }

    @Test
    void emptyEnvironmentVariableIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataDirectory.resolve(null, Map.of(DataDirectory.ENVIRONMENT_VARIABLE, " "), tmp));
        assertTrue(e.getMessage().contains("set but empty"), e.getMessage());
    }

    @Test
    void requireNamesDirectorySourceAndFixes() throws IOException {
        DataDirectory dir = DataDirectory.resolve(null, Map.of(DataDirectory.ENVIRONMENT_VARIABLE, tmp.toString()), tmp);
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> dir.require("a9a/a9a.gz", "a9a"));
        for (String part : new String[] {tmp.toString(), "a9a/a9a.gz", "environment variable DPDL4J_DATA",
                "dpdl4j datasets fetch a9a", "--data-dir"}) {
            assertTrue(e.getMessage().contains(part), "lacks '" + part + "': " + e.getMessage());
        }
        Path present = Files.createDirectories(tmp.resolve("a9a")).resolve("a9a.gz");
        Files.writeString(present, "x");
        assertEquals(present, dir.require("a9a/a9a.gz", "a9a"));
        assertThrows(IllegalArgumentException.class, () -> dir.resolve("../outside"));
    }
}
