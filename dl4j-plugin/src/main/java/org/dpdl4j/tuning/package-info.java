/**
 * Private hyperparameter tuning: how many candidates a tuning run trains ({@link org.dpdl4j.tuning.CandidateCount}),
 * drawn at random so that releasing only the best costs a bounded amount of privacy (Papernot &amp; Steinke 2022,
 * priced by {@link org.dpdl4j.privacy.accounting.RepeatAndSelect}), and what a whole private search costs
 * ({@link org.dpdl4j.tuning.TuningCost}: the candidates' planned ledgers, the noisy score, the random count, composed
 * into one repeat-and-select event), beside those events so that the search's privacy logic lives in the core.
 */
package org.dpdl4j.tuning;
