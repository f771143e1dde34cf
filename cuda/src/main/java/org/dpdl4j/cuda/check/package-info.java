/**
 * The device check of the CUDA engine, runnable without ND4J: the GPU against the plain-Java reference backend, and
 * the step's benchmark with the shapes of the peer kit's GPU anchor.
 */
package org.dpdl4j.cuda.check;
