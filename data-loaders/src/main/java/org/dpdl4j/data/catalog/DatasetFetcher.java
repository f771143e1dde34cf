package org.dpdl4j.data.catalog;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.dpdl4j.data.io.DataFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads the files of a catalog data set into a data directory and verifies them.
 *
 * <p>Each file is downloaded into a {@code .part} file next to its destination. When a
 * {@code .part} is already there (an interrupted download), the request asks for the missing bytes
 * with an HTTP {@code Range} header; a server that ignores it and answers 200 gets the download
 * restarted from the first byte. The complete download is checked against the catalog's SHA-256 of
 * the stored bytes or of the content; a source that serves plain text (LIBSVM's a9a) is
 * gzip-compressed afterwards. Only then is the file renamed, atomically, to its destination, so
 * a destination file is either absent or verified. A mismatch deletes the bad {@code .part} and
 * nothing else.
 *
 * <p>A file's catalog sources are tried in order: when one cannot be reached, answers an HTTP error or serves other
 * bytes, the next is tried, and the error names every source with what went wrong. With a mirror, every file is
 * requested as {@code <mirror>/<relative path>} (for example {@code <mirror>/mnist/train-images-idx3-ubyte.gz}) and
 * from the mirror only: a mirror has the layout of a data directory.
 */
public final class DatasetFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(DatasetFetcher.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(30);

    private final DataDirectory directory;
    private final HttpClient client;
    private final URI mirror;

    /**
     * @param directory where the files go
     * @param client    the HTTP client to use
     * @param mirror    a base URL to fetch from instead of the canonical sources, or {@code null}
     */
    public DatasetFetcher(DataDirectory directory, HttpClient client, URI mirror) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.client = Objects.requireNonNull(client, "client");
        this.mirror = mirror == null ? null : normalizeMirror(mirror);
    }

    /** A fetcher with a default HTTP client (redirects followed, 30 s connect timeout). */
    public static DatasetFetcher create(DataDirectory directory, Optional<URI> mirror) {
        HttpClient client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(30))
                .build();
        return new DatasetFetcher(directory, client, mirror.orElse(null));
    }

    /** Fetches every file of the data set; files already present and verified are skipped. */
    public List<FetchResult> fetch(Dataset dataset) throws IOException {
        List<FetchResult> results = new ArrayList<>();
        for (KnownFile f : dataset.files()) {
            results.add(fetch(f));
        }
        return results;
    }

    /**
     * Fetches one file, unless it is already present and verified, from the first of its sources that serves it.
     *
     * @throws IOException naming every source tried and what went wrong with each, and the fix
     */
    public FetchResult fetch(KnownFile file) throws IOException {
        Path target = directory.locate(file.relativePath());
        List<URI> sources = sourcesOf(file);
        if (Files.exists(target)) {
            HashCheck existing = HashCheck.of(target, file);
            if (existing.matches()) {
                LOG.info("{} is present and verified", file.relativePath());
                return new FetchResult(file.relativePath(), FetchResult.Outcome.ALREADY_VERIFIED, sources.get(0), 0);
            }
            throw new ChecksumMismatchException(file.relativePath(), file.sha256(), existing.actualSha256(),
                    target + " exists but does not match the catalog (" + existing.describeMismatch(file)
                            + "). It was left untouched. Fix: move or delete it, then fetch again");
        }
        Files.createDirectories(target.getParent());
        List<String> failures = new ArrayList<>();
        for (URI source : sources) {
            try {
                return fetchFrom(source, file, target);
            } catch (IOException e) {
                if (sources.size() == 1) {
                    throw e.getMessage() == null || e.getMessage().isBlank() ? new IOException("cannot fetch "
                            + file.relativePath() + " from " + source + ": " + reason(e), e) : e;
                }
                failures.add(source + ": " + reason(e));
                LOG.warn("{} from {} failed ({}); {}", file.relativePath(), source, reason(e),
                        failures.size() < sources.size() ? "trying the next source" : "no source left");
            }
        }
        throw new IOException("every source of " + file.relativePath() + " failed: " + String.join("; ", failures)
                + ". Fix: check the network, or fetch from a reachable copy with --mirror URL (a directory with the layout"
                + " mnist/..., a9a/..., covtype/...)");
    }

    /** Downloads one file from one source, verifies it and puts it in place. */
    private FetchResult fetchFrom(URI source, KnownFile file, Path target) throws IOException {
        Path part = partFileOf(target, encodingOf(file));
        boolean resuming = Files.exists(part) && Files.size(part) > 0;
        Transfer transfer = download(source, part, true);
        HashCheck check = HashCheck.of(part, file);
        if (!check.matches()) {
            Files.deleteIfExists(part);
            throw new ChecksumMismatchException(file.relativePath(), file.sha256(), check.actualSha256(),
                    "the download of " + file.relativePath() + " from " + source + " does not match the catalog ("
                            + check.describeMismatch(file) + "). The bad download " + part
                            + " was deleted; nothing else was changed. Fix: fetch again, or use another --mirror");
        }
        if (DataFiles.isGzip(part)) {
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
        } else {
            Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
            gzip(part, tmp);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            Files.delete(part);
        }
        FetchResult.Outcome outcome = resuming && transfer.appended
                ? FetchResult.Outcome.RESUMED : FetchResult.Outcome.DOWNLOADED;
        LOG.info("{} {} and verified ({} bytes transferred)", file.relativePath(),
                outcome == FetchResult.Outcome.RESUMED ? "resumed" : "downloaded", transfer.bytes);
        return new FetchResult(file.relativePath(), outcome, source, transfer.bytes);
    }

    /** What an exception without a message means, most specific first. */
    private static final Map<Class<? extends Throwable>, String> MEANINGS = meanings();

    private static Map<Class<? extends Throwable>, String> meanings() {
        Map<Class<? extends Throwable>, String> m = new LinkedHashMap<>();
        m.put(UnresolvedAddressException.class, "the host name cannot be resolved");
        m.put(HttpConnectTimeoutException.class, "the connection timed out");
        m.put(SocketTimeoutException.class, "the connection timed out");
        m.put(EOFException.class, "the server closed the connection before the end of the file");
        m.put(ConnectException.class, "the connection was refused or the host is unreachable");
        return m;
    }

    /** Where the file is downloaded from, in order: the mirror's copy, or the catalog's sources. */
    public List<URI> sourcesOf(KnownFile file) {
        return mirror == null ? file.sources() : List.of(mirror.resolve(file.relativePath()));
    }

    /**
     * What went wrong, in words, for an exception whose message may be missing (the HTTP client's connection errors
     * often have none): the first message along its causes, else what its type means.
     */
    public static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        // the most specific cause first: an unresolved host arrives as a ConnectException caused by it
        for (Map.Entry<Class<? extends Throwable>, String> known : MEANINGS.entrySet()) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (known.getKey().isInstance(t)) {
                    return known.getValue();
                }
            }
        }
        return e.getClass().getSimpleName() + " without a message";
    }

    private SourceEncoding encodingOf(KnownFile file) {
        return mirror == null ? file.sourceEncoding() : SourceEncoding.AS_STORED;
    }

    /**
     * The partial download of a target: {@code a9a.gz.part} for the stored bytes, {@code a9a.part}
     * for the plain text, so a resume never appends bytes of one representation to the other.
     */
    static Path partFileOf(Path target, SourceEncoding encoding) {
        String name = target.getFileName().toString();
        if (encoding == SourceEncoding.PLAIN_TEXT && name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        return target.resolveSibling(name + ".part");
    }

    private record Transfer(long bytes, boolean appended) {
    }

    private Transfer download(URI uri, Path part, boolean mayRestart) throws IOException {
        long have = Files.exists(part) ? Files.size(part) : 0;
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET();
        if (have > 0) {
            request.header("Range", "bytes=" + have + "-");
            LOG.info("resuming {} from byte {}", uri, have);
        } else {
            LOG.info("downloading {}", uri);
        }
        HttpResponse<InputStream> response = send(request.build(), uri);
        int code = response.statusCode();
        boolean append;
        if (have > 0 && code == 206) {
            Optional<String> range = response.headers().firstValue("Content-Range");
            if (rangeStart(range) != have) {
                response.body().close();
                if (!mayRestart) {
                    throw new IOException(uri + " answered a request for bytes " + have + "- with Content-Range "
                            + range.orElse("(none)") + " twice. Fix: delete " + part + " and fetch again");
                }
                LOG.warn("{} answered bytes={}- with Content-Range {}; restarting the download", uri, have,
                        range.orElse("(none)"));
                Files.delete(part);
                return download(uri, part, false);
            }
            append = true;
        } else if (have > 0 && code == 416) {
            // Nothing after byte `have`: the previous attempt got everything; verification decides.
            response.body().close();
            return new Transfer(0, true);
        } else if (code == 200) {
            if (have > 0) {
                LOG.info("{} ignored the Range request (HTTP 200); downloading from the start", uri);
            }
            append = false;
        } else {
            response.body().close();
            throw new IOException("HTTP " + code + " from " + uri + ". Fix: check the address, or fetch from "
                    + "another source with --mirror URL (a directory with the layout mnist/..., a9a/..., covtype/...)");
        }
        long bytes;
        try (InputStream body = response.body();
                OutputStream out = append
                        ? Files.newOutputStream(part, StandardOpenOption.APPEND)
                        : Files.newOutputStream(part, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                                StandardOpenOption.WRITE)) {
            bytes = body.transferTo(out);
        }
        return new Transfer(bytes, append);
    }

    private HttpResponse<InputStream> send(HttpRequest request, URI uri) throws IOException {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while requesting " + uri);
        } catch (ConnectException e) {
            throw new IOException("cannot connect to " + uri.getHost() + " for " + uri + " (" + reason(e)
                    + "). Fix: check the network, or fetch from a reachable copy with --mirror URL", e);
        }
    }

    /** The first byte of a {@code Content-Range: bytes START-END/TOTAL} header, or -1. */
    static long rangeStart(Optional<String> header) {
        if (header.isEmpty()) {
            return -1;
        }
        String h = header.get().trim();
        if (!h.startsWith("bytes ")) {
            return -1;
        }
        int dash = h.indexOf('-');
        try {
            return dash < 0 ? -1 : Long.parseLong(h.substring(6, dash).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void gzip(Path plain, Path gz) throws IOException {
        try (InputStream in = Files.newInputStream(plain);
                OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz), 1 << 16) {
                    {
                        def.setLevel(Deflater.BEST_COMPRESSION);
                    }
                }) {
            in.transferTo(out);
        }
    }

    private static URI normalizeMirror(URI mirror) {
        String scheme = mirror.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new IllegalArgumentException("the mirror (--mirror) must be an http:// or https:// URL, got " + mirror);
        }
        String s = mirror.toString();
        return URI.create(s.endsWith("/") ? s : s + "/");
    }
}
