/**
 * Where a run's rounds are computed. A protocol whose parties are independent within a round (the decentralized and
 * federated protocols) can split them into blocks ({@link org.dpdl4j.runtime.engine.PartyBlocks}): each block is
 * planned on the driver, opened once where it is placed, and stepped every round by a
 * {@link org.dpdl4j.runtime.engine.BlockProgram}, on its rows, with the same stacked-tensor engine as one process.
 * A {@link org.dpdl4j.runtime.engine.BlockEngine} places the blocks: {@link org.dpdl4j.runtime.engine.InProcessBlocks}
 * in this JVM, the Spark module on a cluster. {@link org.dpdl4j.runtime.engine.RunEngine}s (found through
 * {@link java.util.ServiceLoader}) turn a command line's {@code --engine} into one.
 */
package org.dpdl4j.runtime.engine;
