package org.dpdl4j.data.catalog;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * An HTTP server on 127.0.0.1 that serves the files under a directory, with optional support for
 * single open-ended {@code Range: bytes=N-} requests, and a hook that can alter the served bytes.
 */
final class LoopbackFileServer implements AutoCloseable {
    private final HttpServer server;
    private final Path root;
    private final boolean honourRange;
    private final UnaryOperator<byte[]> transform;
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());

    /**
     * @param root        the directory whose files are served, at /relative/path
     * @param honourRange whether Range requests get 206 partial content (else the whole file with 200)
     * @param transform   applied to each file's bytes before serving
     */
    LoopbackFileServer(Path root, boolean honourRange, UnaryOperator<byte[]> transform) throws IOException {
        this.root = root.toAbsolutePath().normalize();
        this.honourRange = honourRange;
        this.transform = transform;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A server of the directory's files as they are, with Range support. */
    static LoopbackFileServer serving(Path root) throws IOException {
        return new LoopbackFileServer(root, true, UnaryOperator.identity());
    }

    /** The base URL, ending with '/'. */
    URI baseUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    /** Each request so far as "PATH RANGE" (RANGE is "-" without a Range header). */
    List<String> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath().substring(1);
            String range = exchange.getRequestHeaders().getFirst("Range");
            requests.add(path + " " + (range == null ? "-" : range));
            Path file = root.resolve(path).normalize();
            if (!file.startsWith(root) || !Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] bytes = transform.apply(Files.readAllBytes(file));
            int start = 0;
            if (range != null && honourRange) {
                start = Integer.parseInt(range.substring("bytes=".length(), range.indexOf('-')));
                if (start >= bytes.length) {
                    exchange.getResponseHeaders().add("Content-Range", "bytes */" + bytes.length);
                    exchange.sendResponseHeaders(416, -1);
                    return;
                }
                exchange.getResponseHeaders().add("Content-Range",
                        "bytes " + start + "-" + (bytes.length - 1) + "/" + bytes.length);
                exchange.sendResponseHeaders(206, bytes.length - start);
            } else {
                exchange.sendResponseHeaders(200, bytes.length);
            }
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(Arrays.copyOfRange(bytes, start, bytes.length));
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
