package org.dpdl4j.experiments.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Panels side by side in one image, like a paper figure with subplots (a), (b), (c).
 *
 * @param title        figure title drawn above the panels (empty for none)
 * @param panels       the panels, left to right
 * @param letterPanels prefix panel titles with (a), (b), (c), ...
 */
public record Figure(String title, List<Panel> panels, boolean letterPanels) {

    public Figure {
        Objects.requireNonNull(title, "title must not be null (use \"\" for none)");
        Objects.requireNonNull(panels, "panels must not be null");
        panels = List.copyOf(panels);
        if (panels.isEmpty()) {
            throw new IllegalArgumentException("figure '" + title + "' has no panels; give at least one");
        }
        if (letterPanels && panels.size() > 26) {
            throw new IllegalArgumentException("figure '" + title + "' has " + panels.size()
                    + " panels; at most 26 can be lettered (a)-(z)");
        }
    }

    /** One panel, no figure title. */
    public static Figure of(Panel panel) {
        return new Figure("", List.of(panel), false);
    }

    /** Panels with titles as drawn: lettered when asked. */
    List<Panel> labelledPanels() {
        if (!letterPanels) {
            return panels;
        }
        List<Panel> labelled = new ArrayList<>(panels.size());
        for (int i = 0; i < panels.size(); i++) {
            Panel p = panels.get(i);
            String letter = "(" + (char) ('a' + i) + ")";
            labelled.add(p.withTitle(p.title().isEmpty() ? letter : letter + " " + p.title()));
        }
        return labelled;
    }
}
