package org.dpdl4j.data.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.dpdl4j.data.TestFiles;
import org.dpdl4j.data.io.FileProblem;
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
    void resolveNullMeansNoExplicitDirectory() {
        DataDirectory dir = DataDirectory.resolve(null);
        assertEquals(DataDirectory.resolve(null, System.getenv(), Path.of(System.getProperty("user.home"))), dir);
        assertNotEquals(DataDirectory.Source.EXPLICIT, dir.source());
    }

    @Test
    void emptyEnvironmentVariableIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataDirectory.resolve(null, Map.of(DataDirectory.ENVIRONMENT_VARIABLE, " "), tmp));
        assertTrue(e.getMessage().contains("set but empty"), e.getMessage());
    }

    @Test
    void aFileGivenAsTheDataDirectoryIsRefusedAsAFileNotAPermissionProblem() throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataDirectory.resolve(file, Map.of(), tmp));
        assertMentions(e, file.toString(), "given with --data-dir", "is a file, not a directory");
        e = assertThrows(IllegalArgumentException.class,
                () -> DataDirectory.resolve(null, Map.of(DataDirectory.ENVIRONMENT_VARIABLE, file.resolve("data").toString()), tmp));
        assertMentions(e, "environment variable DPDL4J_DATA", file + " above it is a file");
        assertTrue(!e.getMessage().contains("chmod") && !e.getMessage().contains("permission"), e.getMessage());
        // A library caller that names the directory directly hears the same, from the file it asked for.
        FileSystemException missing = assertThrows(FileSystemException.class, () -> DataDirectory.of(file).require("a9a/a9a.gz", "a9a"));
        assertMentions(missing, "a path above it is a file, not a directory");
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
        assertThrows(IllegalArgumentException.class, () -> dir.locate("../outside"));
    }

    @Test
    void requireSaysWhenADirectoryStandsInTheFilesPlace() throws IOException {
        DataDirectory dir = DataDirectory.of(tmp);
        Path inTheWay = Files.createDirectories(tmp.resolve("a9a/a9a.gz"));
        FileSystemException e = assertThrows(FileSystemException.class, () -> dir.require("a9a/a9a.gz", "a9a"));
        assertMentions(e, inTheWay.toString(), "is a directory, not a file", "Fix: move it out of the way",
                "dpdl4j datasets fetch a9a", "--data-dir");
    }

    @Test
    void requireSaysWhenTheFileIsNotReadable() throws IOException {
        DataDirectory dir = DataDirectory.of(tmp);
        String message = dir.requireMessage("a9a/a9a.gz", "a9a", FileProblem.UNREADABLE);
        assertMentions(message, "a9a/a9a.gz", tmp.toString(), "exists but is not readable (permission denied)",
                "Fix: give this user read permission");
        Path p = TestFiles.unreadable(tmp, "a9a/a9a.t.gz");
        AccessDeniedException e = assertThrows(AccessDeniedException.class, () -> dir.require("a9a/a9a.t.gz", "a9a"));
        assertMentions(e.getMessage(), p.toString(), "exists but is not readable (permission denied)");
    }

    private static void assertMentions(Exception e, String... parts) {
        assertMentions(e.getMessage(), parts);
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "lacks '" + part + "': " + message);
        }
    }
}
