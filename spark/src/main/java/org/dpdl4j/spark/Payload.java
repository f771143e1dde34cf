package org.dpdl4j.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;
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
        byte[] bytes = serialize(value);
        return bytes.length <= INLINE_BYTES ? new Inline(bytes) : new Shared(sc.broadcast(bytes));
    }

    /** The value, deserialized where it is used. */
    abstract Object value();

    /** Frees what the payload holds on the cluster. */
    abstract void release();

    private static final class Inline extends Payload {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;

        Inline(byte[] bytes) {
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
        private final Broadcast<byte[]> bytes;

        Shared(Broadcast<byte[]> bytes) {
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

    static byte[] serialize(Serializable value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialize a block's input (" + value.getClass().getName() + "): " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    static Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ContextClassLoaderInput(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot read a block's input: " + e.getMessage(), e);
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
