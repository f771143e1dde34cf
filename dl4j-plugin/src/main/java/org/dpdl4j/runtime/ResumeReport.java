package org.dpdl4j.runtime;

import java.util.List;
import org.dpdl4j.runtime.options.SettingChange;

/**
 * What a resume did.
 *
 * @param fromStep        the step the run continues after
 * @param changes         the settings that differ from the saved run (all allowed by the policy)
 * @param newSegment      whether the mechanism changed, so new applications form a new segment of the ledger
 */
public record ResumeReport(long fromStep, List<SettingChange> changes, boolean newSegment) {
    public ResumeReport {
        changes = List.copyOf(changes);
    }
}
