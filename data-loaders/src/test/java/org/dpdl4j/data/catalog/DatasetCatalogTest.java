package org.dpdl4j.data.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DatasetCatalogTest {
    @Test
    void knownDatasetsAndTheirFiles() {
        assertEquals(List.of("mnist", "a9a", "covtype-93k", "covtype-20k", "covtype-full", "covtype-binary"),
                DatasetCatalog.entries().stream().map(CatalogEntry::name).collect(Collectors.toList()));
        Dataset mnist = DatasetCatalog.dataset("mnist");
        assertEquals(List.of("mnist/train-images-idx3-ubyte.gz", "mnist/train-labels-idx1-ubyte.gz",
                "mnist/t10k-images-idx3-ubyte.gz", "mnist/t10k-labels-idx1-ubyte.gz"),
                mnist.files().stream().map(KnownFile::relativePath).collect(Collectors.toList()));
        assertEquals(List.of(60000L, 60000L, 10000L, 10000L),
                mnist.files().stream().map(KnownFile::expectedRows).collect(Collectors.toList()));
        Dataset a9a = DatasetCatalog.dataset("a9a");
        assertEquals(List.of(32561L, 16281L), a9a.files().stream().map(KnownFile::expectedRows).collect(Collectors.toList()));
        assertEquals(SourceEncoding.PLAIN_TEXT, a9a.files().get(0).sourceEncoding());
        assertEquals(92962L, DatasetCatalog.dataset("covtype-93k").files().get(0).expectedRows());
        assertEquals("covtype/covtype_binary_scale_subset20k.csv.gz",
                DatasetCatalog.dataset("covtype-20k").files().get(0).relativePath());
        for (CatalogEntry e : DatasetCatalog.entries()) {
            assertTrue(!e.citation().isBlank() && !e.description().isBlank(), e.name());
        }
    }

    @Test
    void unknownAndUnverifiableNames() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> DatasetCatalog.dataset("cifar"));
        assertTrue(unknown.getMessage().contains("unknown data set 'cifar'") && unknown.getMessage().contains("a9a"),
                unknown.getMessage());
        IllegalArgumentException user = assertThrows(IllegalArgumentException.class,
                () -> DatasetCatalog.dataset("covtype-full"));
        assertTrue(user.getMessage().contains("no known SHA-256") && user.getMessage().contains("archive.ics.uci.edu"),
                user.getMessage());
    }

    @Test
    void knownFileValidation() {
        URI u = URI.create("http://example.org/x");
        String hash = "0".repeat(64);
        assertThrows(IllegalArgumentException.class, () -> new KnownFile("x", "abc", null, 1, u, SourceEncoding.AS_STORED,
                RowCounting.TEXT_LINES));
        IllegalArgumentException plain = assertThrows(IllegalArgumentException.class, () -> new KnownFile("x", hash, null,
                1, u, SourceEncoding.PLAIN_TEXT, RowCounting.TEXT_LINES));
        assertTrue(plain.getMessage().contains("content SHA-256"), plain.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KnownFile("x", hash, null, 0, u, SourceEncoding.AS_STORED,
                RowCounting.TEXT_LINES));
    }

    @Test
    void everySourceIsHttpsAndMnistHasAFallback() {
        for (CatalogEntry e : DatasetCatalog.entries()) {
            if (e instanceof Dataset d) {
                for (KnownFile f : d.files()) {
                    for (URI source : f.sources()) {
                        assertEquals("https", source.getScheme(), f.relativePath() + ": " + source);
                    }
                }
            } else if (e instanceof UserProvidedDataset u) {
                assertEquals("https", u.source().getScheme(), u.name());
            }
        }
        for (KnownFile f : DatasetCatalog.dataset("mnist").files()) {
            assertTrue(f.sources().size() >= 2, f.relativePath() + " has no fallback: " + f.sources());
            assertEquals(f.sources().size(), f.sources().stream().map(URI::getHost).distinct().count(), "distinct hosts");
        }
    }
}
