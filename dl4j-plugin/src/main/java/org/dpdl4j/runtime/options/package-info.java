/**
 * Typed run settings. A {@link RunOption} declares one setting (name, {@link ValueType} with its range in words,
 * help text, and the {@link ResumeRule} for changing it on resume); {@link RunOptions} declares the options several
 * protocols share; {@link RunSettings} is the immutable resolved set that builds a run, is saved in its config file
 * and checkpoint, and is compared with a resume's settings as {@link SettingChange}s. Bad values raise
 * {@link InvalidOptionException}. A protocol's own options are declared in its package (e.g.
 * {@code DecentralizedOptions}), the workload and session options in the experiments module, and the picocli
 * options of {@code train} are generated from these declarations in {@code org.dpdl4j.cli.train}.
 */
package org.dpdl4j.runtime.options;
