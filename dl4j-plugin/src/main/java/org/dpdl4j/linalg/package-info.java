/** Small dense linear algebra the protocols share (in double, on ND4J's kernels). */
package org.dpdl4j.linalg;
