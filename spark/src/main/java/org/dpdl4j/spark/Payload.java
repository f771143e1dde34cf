package org.dpdl4j.spark;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * A block's input for one round, serialized once on the driver: carried inside the block's task when it is small (no
 * extra round trip), or as a broadcast that only the executor running the block fetches when it is large (task
 * messages stay small, under Spark's limit on them).
 */
abstract class Payload implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Inputs up to this size travel inside their task: below Spark's warning about large tasks. */
    static final int INLINE_BYTES = 512 * 1024;

    /** The payload of {@code value}. */
    static Payload of(JavaSparkContext sc, Serializable value) {
        byte[][] chunks = serialize(value);
        return chunks.length == 1 && chunks[0].length <= INLINE_BYTES ? new Inline(chunks) : new Shared(sc.broadcast(chunks));
    }

    /** The value, deserialized where it is used. */
    abstract Object value();

    /** Frees what the payload holds on the cluster. */
    abstract void release();

    private static final class Inline extends Payload {
        private static final long serialVersionUID = 1L;
        private final byte[][] bytes;

        Inline(byte[][] bytes) {
            this.bytes = bytes;
        }

        @Override
        Object value() {
            return deserialize(bytes);
        }

        @Override
        void release() {
        }
    }

    private static final class Shared extends Payload {
        private static final long serialVersionUID = 1L;
        private final Broadcast<byte[][]> bytes;

        Shared(Broadcast<byte[][]> bytes) {
            this.bytes = bytes;
        }

        @Override
        Object value() {
            return deserialize(bytes.value());
        }

        @Override
        void release() {
            bytes.destroy();
        }
    }

    /**
     * The value's Java serialization in chunks of at most {@link Chunks#SIZE} bytes: a round's messages are hundreds of
     * megabytes for large runs, and one growing array would be copied (and zeroed) over and over as it doubles.
     */
    static byte[][] serialize(Serializable value) {
        Chunks chunks = new Chunks();
        try (ObjectOutputStream out = new ObjectOutputStream(chunks)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialize a block's input (" + value.getClass().getName() + "): " + e.getMessage(), e);
        }
        return chunks.toArrays();
    }

    static Object deserialize(byte[][] chunks) {
        List<InputStream> parts = new ArrayList<>();
        for (byte[] c : chunks) {
            parts.add(new ByteArrayInputStream(c));
        }
        try (ObjectInputStream in = new ContextClassLoaderInput(new SequenceInputStream(Collections.enumeration(parts)))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot read a block's input: " + e.getMessage(), e);
        }
    }

    /** An output stream into fixed-size chunks, each copied once. */
    private static final class Chunks extends OutputStream {
        static final int SIZE = 4 << 20;
        private final List<byte[]> full = new ArrayList<>();
        private byte[] current = new byte[64 << 10];
        private int used;

        @Override
        public void write(int b) {
            room();
            current[used++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                room();
                int n = Math.min(len, current.length - used);
                System.arraycopy(b, off, current, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        /** A full chunk moves to the list; the first chunk starts small, so that small values stay small. */
        private void room() {
            if (used < current.length) {
                return;
            }
            if (current.length < SIZE && full.isEmpty()) {
                current = Arrays.copyOf(current, Math.min(SIZE, current.length * 4));
                return;
            }
            full.add(current);
            current = new byte[SIZE];
            used = 0;
        }

        byte[][] toArrays() {
            List<byte[]> all = new ArrayList<>(full);
            all.add(Arrays.copyOf(current, used));
            return all.toArray(byte[][]::new);
        }
    }

    /** Resolves classes with the task's class loader, which holds the application's jars on an executor. */
    private static final class ContextClassLoaderInput extends ObjectInputStream {
        ContextClassLoaderInput(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // fall back to the default resolution (primitive types, the loader of the caller)
                }
            }
            return super.resolveClass(desc);
        }
    }
}
