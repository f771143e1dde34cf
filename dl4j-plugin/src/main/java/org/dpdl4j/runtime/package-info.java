/**
 * The one shape of every training run, whatever its protocol. A {@link Protocol} (found by name in the
 * {@link ProtocolRegistry} through {@link ProtocolProvider}s) builds a {@link TrainingRun} from settings and
 * {@link RunInputs} ({@link ModelBuilder}, {@link TrainingSet}, {@link PartySplit}, {@link NodeData});
 * {@link AbstractTrainingRun} is the shared step loop, ledger charging and divergence check, {@link EpochRun} marks
 * central runs, {@link RunListener}s watch the steps, and {@link RunCheckpoint} saves and resumes a run with its
 * {@link RunState} under a {@link ResumePolicy}. Helpers the trainers share also live here: {@link NodeBatches} and
 * {@link PaddedBatch}, {@link RoundWorkspace} and {@link LearningRate} schedules. Every protocol declares what its runs
 * hold as a {@link MemoryEstimate} (from a {@link ModelFootprint} and a {@link DataShape}, with the parts in
 * {@link PartyMemory} the multi-party protocols share), and {@link MemoryCheck} refuses one that does not fit the
 * {@link MemoryLimits} of this JVM before anything large is allocated; {@link ArrayMemory} frees large temporaries as
 * soon as they are dead. A protocol declares the adversary positions around it ({@link ObserverDeclaration}s, what
 * attacks are run against); a run that implements {@link ObservableRun} hands each release such a position sees to
 * it as an {@link ObservedRelease}, so that it can be attacked without an adapter written for it.
 *
 * <p>The protocols themselves are in {@code org.dpdl4j.protocol}, typed options and settings in
 * {@code org.dpdl4j.runtime.options}, and the ledger each run owns in {@code org.dpdl4j.privacy.ledger}; the
 * command-line session around a run (run directory, metrics, progress) is {@code org.dpdl4j.experiments.training}.
 */
package org.dpdl4j.runtime;
