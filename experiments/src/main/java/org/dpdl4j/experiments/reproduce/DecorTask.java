package org.dpdl4j.experiments.reproduce;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;

import java.util.List;
import java.util.Map;

/** One of the three workloads of Decor's Figure 1 (spec section 3.7), with its settings and metric. */
interface DecorTask {
    /** The workload's fixed settings. */
    DecorTaskSettings settings();

    /** Local datasets of the 16 users for a seed (the split; the synthetic instance is fixed). */
    List<NodeData> nodes(long seed);

    /** The initial model (shared by all nodes). */
    MultiLayerNetwork template(long seed);

    /** (learning rate schedule, clip norm) of the reference scripts for this curve and epsilon. */
    Hyper hyper(DecorSetting setting, double epsilon);

    /** Runs the trainer to the end of its planned rounds (those its noise was calibrated for) and returns the task's metric. */
    double runAndMeasure(DecentralizedTrainer trainer);

    /** The paper's Figure 1 values (spec 3.8): epsilon -> label -> value; empty where not read off. */
    Map<Double, Map<String, String>> paperValues();

    /** Learning rate schedule and clipping norm. */
    record Hyper(LearningRate learningRate, double clip) {
        /** The same hyperparameters with the learning-rate schedule starting at {@code eta0}. */
        Hyper withEta0(double eta0) {
            return new Hyper(learningRate.startingAt(eta0), clip);
        }
    }
}
