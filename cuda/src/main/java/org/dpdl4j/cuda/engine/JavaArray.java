package org.dpdl4j.cuda.engine;

/** A {@link DeviceArray} of {@link JavaBackend}: a range of a Java float array. */
record JavaArray(float[] data, int offset, int size) implements DeviceArray {
    @Override
    public long length() {
        return size;
    }

    @Override
    public DeviceArray slice(long from, long length) {
        DeviceArray.checkSlice(size, from, length);
        return new JavaArray(data, offset + (int) from, (int) length);
    }

    /** The Java array behind a device array of the reference backend; null stays null. */
    static JavaArray of(DeviceArray a) {
        if (a == null || a instanceof JavaArray) {
            return (JavaArray) a;
        }
        throw new IllegalArgumentException("an array of another backend (" + a.getClass().getSimpleName()
                + ") was given to the Java reference backend");
    }

    float get(int i) {
        return data[offset + i];
    }

    void set(int i, float v) {
        data[offset + i] = v;
    }
}
