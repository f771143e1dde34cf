package org.dpdl4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.runtime.options.InvalidOptionException;
import org.junit.jupiter.api.Test;

/** --master is checked when it is read: what Spark would refuse at start-up is a usage error naming the option. */
class MasterUrlTest {

    @Test
    void theFormsSparkTakesAreKeptAsGiven() {
        for (String url : new String[] {"local", "local[1]", "local[*]", "local[4,2]", "spark://host:7077",
                "spark://a:7077,b:7078"}) {
            assertEquals(url, SparkOptions.MASTER.parse(url), url);
        }
    }

    @Test
    void noThreadsABadPortOrAnUnknownSchemeIsRefusedWithTheFix() {
        assertRefused("local[0]", "--master local[0]: asks for 0 threads", "local[N] with N >= 1");
        assertRefused("local[2,0]", "0 attempts per task");
        assertRefused("spark://host:70777", "'host:70777' is not HOST:PORT");
        assertRefused("spark://host", "is not HOST:PORT");
        assertRefused("lokal[2]", "is not a master URL", "local[N]");
        assertRefused("yarn", "submit the cluster jar with spark-submit");
    }

    private static void assertRefused(String url, String... parts) {
        InvalidOptionException e = assertThrows(InvalidOptionException.class, () -> SparkOptions.MASTER.parse(url));
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
    }
}
