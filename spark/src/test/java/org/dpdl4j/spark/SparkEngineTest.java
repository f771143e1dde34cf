package org.dpdl4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.engine.EngineOptions;
import org.dpdl4j.runtime.engine.RunEngines;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Choosing the engine: what is installed, and the errors that say what is wrong and what to do. */
class SparkEngineTest {

    @Test
    void theSparkEngineIsFoundOnTheClassPath() {
        assertEquals(java.util.List.of("local", "spark"), RunEngines.names());
        assertEquals("spark", EngineOptions.ENGINE.parse(" Spark "));
    }

    @Test
    void aClusterOptionWithoutTheSparkEngineIsRefused() {
        RunSettings settings = RunSettings.empty().withText(SparkOptions.MASTER, "local[2]");
        InvalidOptionException e = assertThrows(InvalidOptionException.class, () -> RunEngines.place(new CentralRun(), settings));
        assertTrue(e.getMessage().contains("--master local[2] has no effect with --engine local") && e.getMessage().contains("--engine spark"),
                e.getMessage());
    }

    @Test
    void aProtocolWhosePartiesCannotBeSplitIsRefused() {
        RunSettings settings = RunSettings.empty().withText(EngineOptions.ENGINE, "spark");
        InvalidOptionException e = assertThrows(InvalidOptionException.class, () -> RunEngines.place(new CentralRun(), settings));
        assertTrue(e.getMessage().contains("central-toy runs on --engine local only"), e.getMessage());
        // The protocols it does run are the registry's declarations, not a list kept here.
        java.util.List<String> splitting = RunEngines.splitting(org.dpdl4j.runtime.ProtocolRegistry.standard());
        assertEquals(java.util.List.of("dsgd", "decor", "ldp", "cdp", "mu2-sgd", "mu2-untrusted", "mu2-trusted",
                "fedavg", "dp-fedavg-local", "dp-fedavg-central", "gopa"), splitting);
        assertTrue(e.getMessage().contains(String.join(", ", splitting)), e.getMessage());
    }

    @Test
    void masterUrlsThatSparkCannotReachAreRefusedWithTheFix() throws Exception {
        InvalidOptionException form = assertThrows(InvalidOptionException.class, () -> SparkSettings.master("yarn"));
        assertTrue(form.getMessage().contains("spark-submit"), form.getMessage());
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        String url = "spark://127.0.0.1:" + closed;
        InvalidOptionException unreachable = assertThrows(InvalidOptionException.class,
                () -> SparkBlocks.connect(SparkSettings.master(url), "unreachable"));
        assertTrue(unreachable.getMessage().contains("no Spark master answers at 127.0.0.1:" + closed), unreachable.getMessage());
        assertEquals("--master", unreachable.option());
    }

    /** A run of one model: nothing to split. */
    private static final class CentralRun extends AbstractTrainingRun {
        CentralRun() {
            super("central-toy", RunSettings.empty(), null);
        }

        @Override
        protected void takeStep(long index) {
        }

        @Override
        protected void restoreState(RunState state, long completedSteps) {
        }

        @Override
        public long plannedSteps() {
            return 1;
        }

        @Override
        public String stepUnit() {
            return "step";
        }

        @Override
        public INDArray parameters() {
            return Nd4j.zeros(1);
        }

        @Override
        public MultiLayerNetwork model() {
            throw new UnsupportedOperationException();
        }

        @Override
        public RunState state() {
            return RunState.builder().build();
        }
    }
}
