package org.dpdl4j.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/** One local[2] Spark context shared by the tests of a class. */
final class LocalSpark {
    private LocalSpark() {
    }

    static JavaSparkContext start(String name) {
        return new JavaSparkContext(new SparkConf().setMaster("local[2]").setAppName(name).set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1"));
    }
}
