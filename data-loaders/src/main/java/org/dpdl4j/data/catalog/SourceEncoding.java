package org.dpdl4j.data.catalog;

/** What a file's canonical source serves, compared with what the data directory stores. */
public enum SourceEncoding {
    /** The source serves exactly the stored bytes (a .gz file); its SHA-256 is checked as downloaded. */
    AS_STORED,
    /**
     * The source serves the uncompressed text; it is checked against the content SHA-256, then
     * gzip-compressed into the stored file.
     */
    PLAIN_TEXT
}
