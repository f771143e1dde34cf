package org.dpdl4j.data.catalog;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The data sets dpdl4j knows: their files and relative paths in the data directory, SHA-256
 * hashes, row counts, public HTTPS sources (with fallbacks where a second copy exists) and citations.
 *
 * <p>Each file has two hashes: that of the stored gzip bytes, and that of the decompressed content.
 * A copy compressed by another program (gzip output differs between compressors, and the fetcher
 * compresses sources that serve plain text itself) is still verified, by its content.
 */
public final class DatasetCatalog {
    /** MNIST training images. */
    public static final String MNIST_TRAIN_IMAGES = "mnist/train-images-idx3-ubyte.gz";
    /** MNIST training labels. */
    public static final String MNIST_TRAIN_LABELS = "mnist/train-labels-idx1-ubyte.gz";
    /** MNIST test images. */
    public static final String MNIST_TEST_IMAGES = "mnist/t10k-images-idx3-ubyte.gz";
    /** MNIST test labels. */
    public static final String MNIST_TEST_LABELS = "mnist/t10k-labels-idx1-ubyte.gz";
    /** a9a training file (LIBSVM format, gzip). */
    public static final String A9A_TRAIN = "a9a/a9a.gz";
    /** a9a test file (LIBSVM format, gzip). */
    public static final String A9A_TEST = "a9a/a9a.t.gz";
    /** The 92,962-row, 7-class covtype subset (CSV with header). */
    public static final String COVTYPE_93K = "covtype/covtype_scaled_subset93k.csv.gz";
    /** The 20,000-row binary covtype subset (CSV, label first). */
    public static final String COVTYPE_20K = "covtype/covtype_binary_scale_subset20k.csv.gz";

    /**
     * HTTPS copies of LeCun's original MNIST files (his site was fetched over plain HTTP and often refuses downloads):
     * the mirror of the TensorFlow datasets, then torchvision's; the SHA-256 check makes either safe.
     */
    private static final List<String> MNIST_URLS = List.of("https://storage.googleapis.com/cvdf-datasets/mnist/",
            "https://ossci-datasets.s3.amazonaws.com/mnist/");
    private static final String LIBSVM_BINARY_URL = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/";
    private static final String LIBSVM_CITATION = "C.-C. Chang, C.-J. Lin. LIBSVM: a library for support vector "
            + "machines. ACM TIST 2(3):27, 2011.";
    private static final String COVTYPE_CITATION = "J. A. Blackard, D. J. Dean. Comparative accuracies of artificial "
            + "neural networks and discriminant analysis in predicting forest cover types from cartographic variables. "
            + "Computers and Electronics in Agriculture 24(3):131-151, 1999.";

    private static final List<CatalogEntry> ENTRIES = List.of(
            new Dataset("mnist", "MNIST handwritten digits: 60,000 training and 10,000 test images, 28 x 28, 10 classes",
                    List.of(
                            mnist(MNIST_TRAIN_IMAGES, "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
                                    "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db", 60000),
                            mnist(MNIST_TRAIN_LABELS, "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
                                    "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5", 60000),
                            mnist(MNIST_TEST_IMAGES, "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
                                    "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7", 10000),
                            mnist(MNIST_TEST_LABELS, "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
                                    "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2", 10000)),
                    "Y. LeCun, L. Bottou, Y. Bengio, P. Haffner. Gradient-based learning applied to document recognition. "
                            + "Proceedings of the IEEE 86(11):2278-2324, 1998."),
            new Dataset("a9a", "Adult census income (a9a, LIBSVM): 32,561 training and 16,281 test rows, 123 binary "
                    + "features, labels +1 / -1",
                    List.of(
                            new KnownFile(A9A_TRAIN, "b301f3e87350539f3ebc751d07b4691a8c66f0bf38c1d179c86bbf5e2d9623b2",
                                    "f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906", 32561,
                                    URI.create(LIBSVM_BINARY_URL + "a9a"), SourceEncoding.PLAIN_TEXT, RowCounting.TEXT_LINES),
                            new KnownFile(A9A_TEST, "92967561181c73a60149cc8221b936eb746573fda8cbf483115d673f42b26c3f",
                                    "1f448a153f0320399a7e40836eb207655b0bde0f21fc941cc472193daa9f5de9", 16281,
                                    URI.create(LIBSVM_BINARY_URL + "a9a.t"), SourceEncoding.PLAIN_TEXT, RowCounting.TEXT_LINES)),
                    "J. C. Platt. Fast training of support vector machines using sequential minimal optimization. "
                            + "Advances in Kernel Methods - Support Vector Learning, MIT Press, 1998. R. Kohavi. Scaling up "
                            + "the accuracy of Naive-Bayes classifiers: a decision-tree hybrid. Proc. KDD 1996. "
                            + LIBSVM_CITATION),
            new Dataset("covtype-93k", "covtype, a real 92,962-row subset (7 cover types, features scaled to [0, 1]); "
                    + "not the complete data set",
                    List.of(new KnownFile(COVTYPE_93K, "d1683af154f7279cfb7221e813d44d904346d4965779c56bfbe7c5c74cebf8fd",
                            "c5bc67198139ba193c3e3075052cc12c17e3f91839e37724bc4475b3915bc383", 92962,
                            URI.create("https://raw.githubusercontent.com/ramp-kits/covertype/master/data/test.csv.gz"),
                            SourceEncoding.AS_STORED, RowCounting.CSV_WITH_HEADER)),
                    COVTYPE_CITATION),
            new Dataset("covtype-20k", "covtype, a real 20,000-row binary subset (cover type 2 vs rest, scaled, sorted by "
                    + "label: shuffle before use); not the complete data set",
                    List.of(new KnownFile(COVTYPE_20K, "286eb5fd3c8caaeb275c072d8603724468514ab20a05402ebced2cf8aa3f170f",
                            "3a6717b5eb6abf33e2eea0123b830c19eaf37b27e26013af410a6c82187989f4", 20000,
                            URI.create("https://raw.githubusercontent.com/gdesalvo/sleeping/"
                                    + "02ba03418f001f78c672195d3775fa63111d9305/covtype"),
                            SourceEncoding.PLAIN_TEXT, RowCounting.TEXT_LINES)),
                    COVTYPE_CITATION + " " + LIBSVM_CITATION),
            new UserProvidedDataset("covtype-full", "covtype, UCI's complete covtype.data: 581,012 rows, 54 raw features, "
                    + "cover type 1..7 last",
                    List.of("covtype/covtype.data.gz", "covtype/covtype.data"), RowCounting.TEXT_LINES,
                    URI.create("https://archive.ics.uci.edu/ml/machine-learning-databases/covtype/covtype.data.gz"),
                    COVTYPE_CITATION),
            new UserProvidedDataset("covtype-binary", "covtype.binary.scale from LIBSVM: 581,012 rows, labels 1 / 2 "
                    + "(2 = cover type 2), 54 scaled features",
                    List.of("covtype/covtype.libsvm.binary.scale.bz2", "covtype/covtype.libsvm.binary.scale.gz",
                            "covtype/covtype.libsvm.binary.scale"), RowCounting.TEXT_LINES,
                    URI.create(LIBSVM_BINARY_URL + "covtype.libsvm.binary.scale.bz2"),
                    COVTYPE_CITATION + " " + LIBSVM_CITATION));

    private DatasetCatalog() {
    }

    /** Every known data set, in display order. */
    public static List<CatalogEntry> entries() {
        return ENTRIES;
    }

    /** The entry with this name, if any. */
    public static Optional<CatalogEntry> find(String name) {
        return ENTRIES.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /**
     * The verifiable data set with this name.
     *
     * @throws IllegalArgumentException for an unknown name (listing the known ones) or a user-provided
     *                                  data set (saying where to download it by hand)
     */
    public static Dataset dataset(String name) {
        CatalogEntry e = find(name).orElseThrow(() -> new IllegalArgumentException("unknown data set '" + name
                + "'; known data sets: " + names()));
        if (e instanceof UserProvidedDataset u) {
            throw new IllegalArgumentException("data set '" + name + "' has no known SHA-256, so it cannot be fetched "
                    + "and verified; download it by hand from " + u.source() + " and save it as one of "
                    + u.candidatePaths() + " in the data directory");
        }
        return (Dataset) e;
    }

    /** The names of all entries, comma-separated. */
    public static String names() {
        return ENTRIES.stream().map(CatalogEntry::name).collect(Collectors.joining(", "));
    }

    private static KnownFile mnist(String relativePath, String sha256, String contentSha256, long rows) {
        String fileName = relativePath.substring(relativePath.indexOf('/') + 1);
        return new KnownFile(relativePath, sha256, contentSha256, rows,
                MNIST_URLS.stream().map(base -> URI.create(base + fileName)).toList(), SourceEncoding.AS_STORED, RowCounting.IDX_ITEMS);
    }
}
