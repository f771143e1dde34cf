package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.protocol.decentralized.DecentralizedOptions;
import org.dpdl4j.runtime.options.ResumeRule;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.options.ValueType;
import org.junit.jupiter.api.Test;
import org.dpdl4j.runtime.options.PartyOptions;

/** The protocols found on the class path, and the checks a registry makes when it is built. */
class ProtocolRegistryTest {
    private static final List<String> LIBRARY = List.of("sgd", "dp-sgd", "dsgd", "decor", "ldp", "cdp", "muffliato", "mu2-sgd", "mu2-untrusted",
            "mu2-trusted", "fedavg", "dp-fedavg-local", "dp-fedavg-central", "gopa", "random-walk", "recal", "dp-recal",
            "recal-sync", "pg-extra", "dp-pg-extra", "nids", "dp-nids", "personalized-cd", "dp-personalized-cd",
            "model-propagation", "personalized-admm");

    /** A protocol that only has a name and options. */
    private record Named(String name, List<RunOption<?>> options) implements Protocol {
        @Override
        public String family() {
            return "test";
        }

        @Override
        public String summary() {
            return "a test protocol";
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public MemoryEstimate memory(RunSettings settings, RunInputs inputs) {
            return MemoryEstimate.of(name).build();
        }

        @Override
        public TrainingRun create(RunSettings settings, RunInputs inputs) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void theStandardRegistryListsExactlyTheLibrarysProtocolsInRegistrationOrder() {
        ProtocolRegistry registry = ProtocolRegistry.standard();
        assertEquals(LIBRARY, registry.names());
        assertEquals(List.of("central", "decentralized", "federated", "relay", "personalized"), registry.families());
        assertSame(registry, ProtocolRegistry.standard(), "found once");
        for (String name : LIBRARY) {
            assertEquals(name, registry.get(name).name());
            assertTrue(registry.contains(" " + name.toUpperCase() + " "), "names are trimmed and case-insensitive");
        }
        List<String> nonPrivate = List.of("sgd", "dsgd", "mu2-sgd", "fedavg", "recal", "recal-sync", "pg-extra", "nids", "personalized-cd",
                "model-propagation", "personalized-admm");
        for (Protocol p : registry.all()) {
            assertEquals(!nonPrivate.contains(p.name()), p.isPrivate(), p.name());
            // A private protocol is calibrated from a target; giving one to a protocol without a guarantee is an error.
            assertEquals(p.isPrivate(), p.options().contains(RunOptions.EPSILON), p.name());
            assertTrue(p.options().contains(RunOptions.SEED), p.name() + " reads --seed");
            assertEquals(p.options().size(), p.options().stream().distinct().count(), p.name() + " lists an option twice");
        }
    }

    @Test
    void anUnknownNameIsRefusedListingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProtocolRegistry.standard().get("dp-sgd2"));
        assertTrue(e.getMessage().contains("'dp-sgd2'"), e.getMessage());
        assertTrue(e.getMessage().contains(String.join(", ", LIBRARY)), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ProtocolRegistry.standard().get(null));
        assertFalse(ProtocolRegistry.standard().contains("sgd2"));
    }

    @Test
    void clashesAreRefusedWhenTheRegistryIsBuilt() {
        IllegalArgumentException names = assertThrows(IllegalArgumentException.class,
                () -> ProtocolRegistry.of(List.of(new Named("walk", List.of()), new Named("walk", List.of()))));
        assertTrue(names.getMessage().contains("two protocols are named 'walk'"), names.getMessage());
        RunOption<Double> otherClip = RunOption.of("clip", "C", ValueType.realAbove(0, 10), ResumeRule.FREE, "a clip of its own");
        IllegalArgumentException option = assertThrows(IllegalArgumentException.class, () -> ProtocolRegistry.of(List.of(
                new Named("a", List.of(RunOptions.CLIP)), new Named("b", List.of(otherClip)))));
        assertTrue(option.getMessage().contains("protocol b") && option.getMessage().contains("--clip"), option.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> ProtocolRegistry.of(List.of(new Named("Random Walk", List.of()))));
        assertTrue(name.getMessage().contains("'Random Walk'"), name.getMessage());
        // One option shared by two protocols (the same declaration) is what sharing means.
        ProtocolRegistry shared = ProtocolRegistry.of(List.of(new Named("a", List.of(RunOptions.CLIP, RunOptions.SEED)),
                new Named("b", List.of(RunOptions.CLIP))));
        assertEquals(List.of(RunOptions.CLIP, RunOptions.SEED), shared.options());
    }

    @Test
    void readingNamesTheProtocolsThatReadAnOption() {
        ProtocolRegistry registry = ProtocolRegistry.of(List.of(new Named("a", List.of(RunOptions.CLIP, RunOptions.SEED)),
                new Named("b", List.of(RunOptions.SEED)), new Named("c", List.of(RunOptions.CLIP))));
        assertEquals(List.of("a", "c"), registry.reading(RunOptions.CLIP).stream().map(Protocol::name).toList());
        assertEquals(List.of("a", "b"), registry.reading(RunOptions.SEED).stream().map(Protocol::name).toList());
        assertEquals(List.of(), registry.reading(RunOptions.EPOCHS));

        ProtocolRegistry standard = ProtocolRegistry.standard();
        assertEquals(LIBRARY, standard.reading(RunOptions.SEED).stream().map(Protocol::name).toList());
        assertEquals(List.of("sgd", "dp-sgd"), standard.reading(RunOptions.EPOCHS).stream().map(Protocol::name).toList());
        assertEquals(List.of("decor"), standard.reading(DecentralizedOptions.SIGMA_COR).stream().map(Protocol::name).toList());
        assertEquals(List.of("dsgd", "decor", "ldp", "muffliato", "recal", "dp-recal", "recal-sync", "pg-extra", "dp-pg-extra", "nids", "dp-nids"),
                standard.reading(PartyOptions.TOPOLOGY).stream().map(Protocol::name).toList());
        for (RunOption<?> o : standard.options()) {
            assertFalse(standard.reading(o).isEmpty(), o + " is read by some protocol");
        }
    }
}
