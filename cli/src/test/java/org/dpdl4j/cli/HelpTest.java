package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What the help shows: whole sentences in every command list, and every registered algorithm in train's. */
class HelpTest {

    /** Every command under dpdl4j, with its qualified name. */
    private static List<CommandLine> commands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>();
        for (CommandLine sub : root.getSubcommands().values()) {
            all.add(sub);
            all.addAll(commands(sub));
        }
        return all;
    }

    private static String name(CommandLine c) {
        return c.getCommandSpec().qualifiedName(" ");
    }

    /** A parent lists each subcommand with the first line of its description: it must be a whole sentence. */
    @Test
    void everyCommandListShowsWholeSentences() {
        for (CommandLine c : commands(Dpdl4jCommand.commandLine())) {
            String[] description = c.getCommandSpec().usageMessage().description();
            assertTrue(description.length > 0, name(c) + " has no description");
            String first = description[0].strip();
            assertTrue(first.endsWith("."), name(c) + ": the line its parent's command list shows is cut off mid-sentence: '"
                    + first + "'");
        }
    }

    @Test
    void descriptionsSayWhatEachCommandCovers() {
        CommandRun account = CommandRun.of("account", "--help");
        for (String covered : List.of("DP-SGD", "Decor", "DP-RECAL", "personalized")) {
            assertTrue(account.out().contains(covered), "account --help: " + covered + "\n" + account.out());
        }
        String accountLine = CommandRun.of("--help").out().lines().filter(l -> l.strip().startsWith("account"))
                .findFirst().orElseThrow();
        assertFalse(accountLine.strip().endsWith("for DP-SGD with Poisson sampling."), accountLine);
        String bench = CommandRun.of("bench", "--help").out();
        for (String covered : List.of("DP-SGD", "noise", "Decor", "accountant", "mu^2-SGD", "DP-RECAL")) {
            assertTrue(bench.contains(covered), "bench --help: " + covered + "\n" + bench);
        }
        String decor = CommandRun.of("reproduce", "decor", "--help").out();
        for (String covered : List.of("CDP", "Decor", "LDP", "seeded noise")) {
            assertTrue(decor.contains(covered), "reproduce decor --help: " + covered + "\n" + decor);
        }
    }

    /** train --help lists every registered algorithm under its family, with its summary whole. */
    @Test
    void trainHelpListsEveryAlgorithmUnderItsFamily() {
        CommandRun help = CommandRun.of("train", "--help");
        assertEquals(0, help.exitCode(), help.err());
        List<String> lines = help.out().lines().toList();
        int algorithms = lines.indexOf("Algorithms (--algo):");
        assertTrue(algorithms >= 0, help.out());
        ProtocolRegistry registry = ProtocolRegistry.standard();
        assertTrue(registry.families().containsAll(List.of("central", "decentralized", "federated", "relay", "personalized")),
                registry.families().toString());
        for (Protocol p : registry.all()) {
            int heading = lines.indexOf("  " + p.family() + ":");
            assertTrue(heading > algorithms, "no heading for family " + p.family());
            int at = -1;
            for (int i = heading + 1; i < lines.size() && lines.get(i).startsWith("    "); i++) {
                if (lines.get(i).startsWith("    " + p.name() + " ")) {
                    at = i;
                }
            }
            assertTrue(at > heading, p.name() + " is not listed under " + p.family() + "\n" + help.out());
            StringBuilder text = new StringBuilder(lines.get(at).substring(4 + p.name().length()).strip());
            for (int i = at + 1; i < lines.size() && lines.get(i).startsWith("     ") && !lines.get(i).strip().isEmpty()
                    && !lines.get(i).startsWith("    " + lines.get(i).strip()); i++) {
                text.append(' ').append(lines.get(i).strip());
            }
            assertEquals(p.summary(), text.toString(), p.name() + "'s summary in train --help");
        }
    }
}
