package org.dpdl4j.experiments.training;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;

import java.util.List;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options of a training session: where it writes, how often it evaluates and saves, how it resumes. */
public final class SessionOptions {
    private SessionOptions() {
    }

    public static final RunOption<String> OUT = RunOption.of("out", "DIR", ValueType.text("a directory"), FREE,
            "Run directory (new or empty); default runs/<time>-<name>.");
    public static final RunOption<String> DATA_DIR = RunOption.of("data-dir", "DIR", ValueType.text("a directory"), FREE,
            "Data directory; default $DPDL4J_DATA, else ~/.dpdl4j/data.");
    public static final RunOption<Long> EVAL_EVERY = RunOption.of("eval-every", "K", ValueType.integer(1, Long.MAX_VALUE), FREE,
            "Evaluate the model every K epochs for central training (sgd, dp-sgd; default 1), else every K rounds"
                    + " (default rounds/50).");
    public static final RunOption<Long> CHECKPOINT_EVERY = RunOption.of("checkpoint-every", "K", ValueType.integer(0, Long.MAX_VALUE),
            FREE, "Also write a checkpoint every K rounds (steps), 0 for none; without it, every 10 minutes of training."
                    + " A checkpoint is written at the end and when the run stops in any case.");
    public static final RunOption<String> RESUME = RunOption.of("resume", "RUN", ValueType.text("a run directory or its checkpoint.bin"),
            FREE, "Continue a run from its checkpoint (a run directory or its checkpoint.bin), in its own directory unless"
                    + " --out names another; its settings must be the saved ones unless --continue-with-new-settings.");
    public static final RunOption<Boolean> CONTINUE_WITH_NEW_SETTINGS = RunOption.of("continue-with-new-settings", "",
            ValueType.flag(), FREE, "With --resume: continue under settings that change the private mechanism (target,"
                    + " rounds, clip, noise, graph, ...); the saved and the new steps then compose in the ledger.");
    public static final RunOption<Boolean> SAVE_NODE_MODELS = RunOption.of("save-node-models", "", ValueType.flag(), FREE,
            "Also save every party's own model (model-node-<i>.zip) when the protocol keeps one per party.");
    public static final RunOption<Boolean> DRY_RUN = RunOption.of("dry-run", "", ValueType.flag(), FREE,
            "Price the run and stop: the privacy it will spend (its planned ledger, from the settings and the data's"
                    + " sizes) and the memory it will need; nothing is built, trained or written.");
    public static final RunOption<Boolean> STRICT_DATA = RunOption.of("strict-data", "", ValueType.flag(), FREE,
            "Refuse data files whose SHA-256 differs from the catalogue's (default: a warning naming the file).");

    /** Every session option. */
    public static List<RunOption<?>> all() {
        return List.of(OUT, DATA_DIR, EVAL_EVERY, CHECKPOINT_EVERY, RESUME, CONTINUE_WITH_NEW_SETTINGS, SAVE_NODE_MODELS, STRICT_DATA,
                DRY_RUN);
    }
}
