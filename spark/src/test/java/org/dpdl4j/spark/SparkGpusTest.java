package org.dpdl4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.OptionalInt;
import org.apache.spark.resource.ResourceInformation;
import org.junit.jupiter.api.Test;

/** The GPU Spark assigns a task becomes the device its block opens on. */
class SparkGpusTest {
    private static Map<String, ResourceInformation> gpus(String... addresses) {
        return Map.of(SparkGpus.GPU, new ResourceInformation(SparkGpus.GPU, addresses));
    }

    @Test
    void theFirstAssignedGpuIsTheDevice() {
        assertEquals(OptionalInt.of(3), SparkGpus.assigned(gpus("3")));
        assertEquals(OptionalInt.of(1), SparkGpus.assigned(gpus(" 1", "2")));
    }

    @Test
    void noGpuResourceMeansNoAssignment() {
        assertTrue(SparkGpus.assigned(Map.of()).isEmpty());
        assertTrue(SparkGpus.assigned(gpus()).isEmpty());
        assertTrue(SparkGpus.assigned(null).isEmpty());
        assertTrue(SparkGpus.assigned().get().isEmpty(), "outside a task nothing is assigned");
    }

    @Test
    void anAddressThatIsNotADeviceNumberIsRefusedWithTheFix() {
        for (String address : new String[]{"GPU-5a3b", "-1"}) {
            org.dpdl4j.optim.DeviceUnavailableException e = assertThrows(org.dpdl4j.optim.DeviceUnavailableException.class,
                    () -> SparkGpus.assigned(gpus(address)));
            assertTrue(e.getMessage().contains(address) && e.getMessage().contains("discovery script"), e.getMessage());
        }
    }
}
