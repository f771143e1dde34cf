package org.dpdl4j.cli.report;

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

/**
 * The JSON mapper of run outputs: pretty-printed, and able to write the JDK types configurations hold
 * (Optional, java.time values, paths) without extra Jackson modules: optionals as their value or null,
 * times and durations in ISO-8601, paths as written.
 */
final class ReportJson {
    private static final ObjectMapper MAPPER = createMapper();

    private ReportJson() {
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper createMapper() {
        SimpleModule jdkTypes = new SimpleModule("dpdl4j-report-jdk-types");
        jdkTypes.addSerializer(TemporalAccessor.class, new ToStringSerializer<>());
        jdkTypes.addSerializer(Duration.class, new ToStringSerializer<>());
        jdkTypes.addSerializer(ZoneId.class, new ToStringSerializer<>());
        jdkTypes.addSerializer(Path.class, new ToStringSerializer<>());
        @SuppressWarnings({"unchecked", "rawtypes"})
        Class<Optional<?>> optionalClass = (Class) Optional.class;
        jdkTypes.addSerializer(optionalClass, new OptionalSerializer());
        jdkTypes.addSerializer(OptionalDouble.class, new JsonSerializer<>() {
            @Override
            public void serialize(OptionalDouble value, JsonGenerator gen, SerializerProvider provider)
                    throws IOException {
                if (value.isPresent()) {
                    gen.writeNumber(value.getAsDouble());
                } else {
                    gen.writeNull();
                }
            }
        });
        jdkTypes.addSerializer(OptionalLong.class, new JsonSerializer<>() {
            @Override
            public void serialize(OptionalLong value, JsonGenerator gen, SerializerProvider provider)
                    throws IOException {
                if (value.isPresent()) {
                    gen.writeNumber(value.getAsLong());
                } else {
                    gen.writeNull();
                }
            }
        });
        jdkTypes.addSerializer(OptionalInt.class, new JsonSerializer<>() {
            @Override
            public void serialize(OptionalInt value, JsonGenerator gen, SerializerProvider provider)
                    throws IOException {
                if (value.isPresent()) {
                    gen.writeNumber(value.getAsInt());
                } else {
                    gen.writeNull();
                }
            }
        });
        return new ObjectMapper()
                .registerModule(jdkTypes)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }

    private static final class ToStringSerializer<T> extends JsonSerializer<T> {
        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(value.toString());
        }
    }

    private static final class OptionalSerializer extends JsonSerializer<Optional<?>> {
        @Override
        public void serialize(Optional<?> value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value.isPresent()) {
                provider.defaultSerializeValue(value.get(), gen);
            } else {
                gen.writeNull();
            }
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, Optional<?> value) {
            return value == null || value.isEmpty();
        }
    }
}
