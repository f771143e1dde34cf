/**
 * Private hyperparameter tuning: how many candidates a tuning run trains ({@link org.dpdl4j.tuning.CandidateCount}),
 * drawn at random so that releasing only the best costs a bounded amount of privacy (Papernot &amp; Steinke 2022,
 * priced by {@link org.dpdl4j.privacy.accounting.RepeatAndSelect}).
 */
package org.dpdl4j.tuning;
