package org.dpdl4j.data.catalog;

import java.io.IOException;
import java.nio.file.Path;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.io.Sha256;

/**
 * The result of comparing a file with the hashes of a {@link KnownFile}.
 *
 * @param matches       whether the stored bytes or the decompressed content have the known hash
 * @param byContent     whether the match is by content (the stored bytes differ, e.g. recompressed)
 * @param actualSha256  the SHA-256 of the stored bytes
 * @param actualContent the SHA-256 of the decompressed content, or a note why it is not available
 */
public record HashCheck(boolean matches, boolean byContent, String actualSha256, String actualContent) {

    /** Hashes the file (and, when its bytes do not match, its decompressed content). */
    public static HashCheck of(Path file, KnownFile known) throws IOException {
        String actual = Sha256.of(file);
        if (actual.equals(known.sha256())) {
            return new HashCheck(true, false, actual, null);
        }
        if (known.contentSha256() == null) {
            return new HashCheck(false, false, actual, null);
        }
        String content;
        try {
            content = Sha256.ofContent(file);
        } catch (MalformedDataException e) {
            return new HashCheck(false, false, actual, "unreadable: " + e.getMessage());
        }
        return new HashCheck(content.equals(known.contentSha256()), true, actual, content);
    }

    /** A sentence naming expected and actual hashes, for mismatch messages. */
    public String describeMismatch(KnownFile known) {
        StringBuilder s = new StringBuilder("expected SHA-256 ").append(known.sha256()).append(", actual ")
                .append(actualSha256);
        if (known.contentSha256() != null) {
            s.append("; decompressed content: expected ").append(known.contentSha256()).append(", actual ")
                    .append(actualContent);
        }
        return s.toString();
    }
}
