package org.dpdl4j.data.catalog;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.covtype.CovtypeLayout;
import org.dpdl4j.data.covtype.CovtypeOptions;
import org.dpdl4j.data.covtype.CovtypeReader;
import org.dpdl4j.data.covtype.CovtypeTask;
import org.dpdl4j.data.io.DataFiles;
import org.dpdl4j.data.io.FileProblem;
import org.dpdl4j.data.libsvm.LibSvmFormat;
import org.dpdl4j.data.libsvm.LibSvmReader;
import org.dpdl4j.data.mnist.MnistReader;
import org.dpdl4j.data.mnist.PixelScaling;

/**
 * Loads the catalog's data sets from a data directory by name, with the right reader and options.
 * A missing file fails with a message that names the directory, where its location came from,
 * and the {@code dpdl4j datasets fetch} command that gets the file.
 */
public final class Datasets {
    private Datasets() {
    }

    /** MNIST: 60,000 training and 10,000 test images, 784 features, 10 classes. */
    public static TrainTest mnist(DataDirectory dir, PixelScaling scaling) throws IOException {
        return new TrainTest(
                MnistReader.read(dir.require(DatasetCatalog.MNIST_TRAIN_IMAGES, "mnist"),
                        dir.require(DatasetCatalog.MNIST_TRAIN_LABELS, "mnist"), scaling, "mnist-train"),
                MnistReader.read(dir.require(DatasetCatalog.MNIST_TEST_IMAGES, "mnist"),
                        dir.require(DatasetCatalog.MNIST_TEST_LABELS, "mnist"), scaling, "mnist-test"));
    }

    /** a9a: 32,561 training and 16,281 test rows, 123 features, class 1 = label +1. */
    public static TrainTest a9a(DataDirectory dir) throws IOException {
        return new TrainTest(
                LibSvmReader.read(dir.require(DatasetCatalog.A9A_TRAIN, "a9a"), LibSvmFormat.A9A, "a9a-train"),
                LibSvmReader.read(dir.require(DatasetCatalog.A9A_TEST, "a9a"), LibSvmFormat.A9A, "a9a-test"));
    }

    /** The 92,962-row covtype subset (file order; shuffle or split before use). */
    public static LabeledData covtype93k(DataDirectory dir, CovtypeTask task) throws IOException {
        return CovtypeReader.read(dir.require(DatasetCatalog.COVTYPE_93K, "covtype-93k"),
                CovtypeOptions.of(CovtypeLayout.SCALED_WITH_HEADER, task), "covtype-93k");
    }

    /** The 20,000-row binary covtype subset, class 1 = cover type 2 (sorted by label: shuffle or split before use). */
    public static LabeledData covtype20k(DataDirectory dir) throws IOException {
        return CovtypeReader.read(dir.require(DatasetCatalog.COVTYPE_20K, "covtype-20k"),
                CovtypeOptions.of(CovtypeLayout.BINARY_LABEL_FIRST, CovtypeTask.TYPE2_VS_REST), "covtype-20k");
    }

    /**
     * UCI's complete covtype.data (user-provided: {@code covtype/covtype.data.gz} or
     * {@code covtype/covtype.data}), each feature min-max scaled to [0, 1].
     */
    public static LabeledData covtypeFull(DataDirectory dir, CovtypeTask task) throws IOException {
        return CovtypeReader.read(userFile(dir, "covtype-full"), CovtypeOptions.of(CovtypeLayout.UCI_RAW, task),
                "covtype-full");
    }

    /**
     * LIBSVM's covtype.binary.scale (user-provided, gzip or plain; a .bz2 must be decompressed
     * first), class 1 = cover type 2.
     */
    public static LabeledData covtypeBinary(DataDirectory dir) throws IOException {
        return LibSvmReader.read(userFile(dir, "covtype-binary"), LibSvmFormat.COVTYPE_BINARY, "covtype-binary");
    }

    /** The first readable candidate file of a user-provided data set (not a .bz2, which cannot be read here). */
    static Path userFile(DataDirectory dir, String name) throws IOException {
        UserProvidedDataset d = (UserProvidedDataset) DatasetCatalog.find(name).orElseThrow();
        for (String candidate : d.candidatePaths()) {
            Path p = dir.locate(candidate);
            if (candidate.endsWith(".bz2") || FileProblem.of(p).equals(Optional.of(FileProblem.MISSING))) {
                continue; // bzip2 is not readable here; a decompressed copy may sit beside it
            }
            DataFiles.requireRegularFile(p); // something is there: it must be a readable file
            return p;
        }
        throw new NoSuchFileException(dir.path().toString(), null, "data set " + name + " is not in the data directory "
                + dir.describe() + "; it has no known hash, so it is not fetched. Fix: download it by hand from "
                + d.source() + " and save it as one of " + d.candidatePaths() + " (decompress a .bz2 with bunzip2), or "
                + dir.howToChange());
    }
}
