package org.dpdl4j.experiments.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.temporal.TemporalAccessor;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The JSON mapper of run outputs: pretty-printed, and able to write the JDK types configurations hold
 * (optionals, java.time values, paths) without extra Jackson modules: optionals as their value or null,
 * times and durations in ISO-8601, paths as written.
 */
final class ReportJson {
    private static final ObjectMapper MAPPER = createMapper();

    private ReportJson() {
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ObjectMapper createMapper() {
        SimpleModule jdkTypes = new SimpleModule("dpdl4j-report-jdk-types");
        jdkTypes.addSerializer(TemporalAccessor.class, new AsValue<>(Object::toString));
        jdkTypes.addSerializer(Duration.class, new AsValue<>(Object::toString));
        jdkTypes.addSerializer(ZoneId.class, new AsValue<>(Object::toString));
        jdkTypes.addSerializer(Path.class, new AsValue<>(Object::toString));
        jdkTypes.addSerializer((Class) Optional.class, new AsValue<Optional<?>>(o -> o.orElse(null)));
        jdkTypes.addSerializer(OptionalDouble.class,
                new AsValue<>(o -> o.isPresent() ? (Object) o.getAsDouble() : null));
        jdkTypes.addSerializer(OptionalLong.class, new AsValue<>(o -> o.isPresent() ? (Object) o.getAsLong() : null));
        jdkTypes.addSerializer(OptionalInt.class, new AsValue<>(o -> o.isPresent() ? (Object) o.getAsInt() : null));
        return new ObjectMapper()
                .registerModule(jdkTypes)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }

    /** Writes a value as another value (a string, a number, the content of an optional, or null). */
    private static final class AsValue<T> extends JsonSerializer<T> {
        private final Function<T, Object> convert;

        AsValue(Function<T, Object> convert) {
            this.convert = convert;
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            Object converted = convert.apply(value);
            if (converted == null) {
                gen.writeNull();
            } else if (converted instanceof String text) {
                gen.writeString(text);
            } else {
                provider.defaultSerializeValue(converted, gen);
            }
        }
    }
}
