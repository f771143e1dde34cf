package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpdl4j attack report} and {@code dpdl4j attack compare} on real MNIST, kept small. */
class AttackReportCommandTest {

    private static String dataDir() {
        return CommandRun.realDataDir("the attack commands");
    }

    @Test
    void reportOnSgdAndDpSgdWritesTheTableTheVerdictsAndTheFiles(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("report");
        CommandRun r = CommandRun.of("attack", "report", "--images", "2", "--protocols", "sgd,dp-sgd", "--epsilons", "8",
                "--attack-round", "1", "--idlg-iterations", "3", "--baselines", "2", "--data-dir", dataDir(),
                "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertTrue(r.out().contains("dp-sgd at epsilon 8: 2 cases"), r.out());
        assertTrue(r.out().contains("dp-sgd / gradient at epsilon 8: recovery fails on 100% of the images"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("sgd ") && l.contains("analytic-ls") && l.contains(
                "100%")), "plain SGD: analytic inversion recovers both images\n" + r.out());
        for (String file : List.of("report.md", "results.csv", "images.csv", "baselines.csv", "grid-analytic-ls.png",
                "grid-idlg.png", "config.json")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("## The failure threshold, derived"), md);
        assertTrue(md.contains("Produced by `dpdl4j attack report --images 2 --protocols"), md);
        assertTrue(md.contains("60000 planned steps (1 epoch) at rate 1/60000"), "the calibration is stated: " + md);
        assertEquals(1 + 4, Files.readAllLines(out.resolve("results.csv")).size(), "2 protocols x 2 attacks");
    }

    @Test
    void anInterruptedReportResumesFromItsJournalToTheSameFiles(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("report");
        String[] args = {"attack", "report", "--images", "2", "--protocols", "sgd,dp-sgd", "--epsilons", "1,8",
                "--attack-round", "1", "--idlg-iterations", "3", "--baselines", "2", "--data-dir", dataDir(),
                "--out", out.toString()};
        CommandRun whole = CommandRun.of(concat(args, "--keep-journal"));
        assertEquals(0, whole.exitCode(), whole.err() + whole.out());
        Path journal = out.resolve("journal.jsonl");
        List<String> lines = Files.readAllLines(journal);
        // plan; sgd: run, 2 rows; dp-sgd at 1: run, 2 rows; dp-sgd at 8: run, 2 rows
        assertEquals(10, lines.size(), String.join("\n", lines));
        String images = withoutSeconds(Files.readAllLines(out.resolve("images.csv")));
        String baselines = Files.readString(out.resolve("baselines.csv"));

        // A crash while dp-sgd at epsilon 1 was attacked: its iDLG row was half written, the report never was.
        Files.writeString(journal, String.join("\n", lines.subList(0, 6)) + "\n" + lines.get(6).substring(0, 40));
        for (String f : List.of("report.md", "results.csv", "images.csv", "baselines.csv")) {
            Files.delete(out.resolve(f));
        }
        CommandRun resumed = CommandRun.of(concat(args, "--resume"));
        assertEquals(0, resumed.exitCode(), resumed.err() + resumed.out());
        assertTrue(resumed.out().contains("sgd at epsilon inf: every row is in the journal"), resumed.out());
        assertTrue(resumed.out().contains("dp-sgd at epsilon 1: 2 cases"), "retrained for its missing row: "
                + resumed.out());
        assertTrue(resumed.out().contains("dp-sgd at epsilon 8: 2 cases"), resumed.out());
        assertEquals(images, withoutSeconds(Files.readAllLines(out.resolve("images.csv"))));
        assertEquals(baselines, Files.readString(out.resolve("baselines.csv")));
        assertTrue(Files.notExists(journal), "a finished report deletes its journal");

        CommandRun again = CommandRun.of(concat(args, "--resume"));
        assertEquals(2, again.exitCode());
        assertTrue(again.err().contains("--resume: nothing to resume"), again.err());
    }

    private static String[] concat(String[] args, String more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = more;
        return all;
    }

    /** images.csv without its last column, the attack's time. */
    private static String withoutSeconds(List<String> csv) {
        return String.join("\n", csv.stream().map(l -> l.substring(0, l.lastIndexOf(','))).toList());
    }

    /**
     * {@code --accountant rdp} calibrates random-walk SGD to Renyi DP alone (more noise than the default's tightest bound
     * for the same epsilon), the report and config.json say so, and a journal is only resumed under the accounting it
     * began with.
     */
    @Test
    void theAccountantCalibratesTheReportAndBindsItsJournal(@TempDir Path tmp) throws Exception {
        String[] common = {"attack", "report", "--images", "1", "--protocols", "random-walk", "--epsilons", "1", "--attack-round",
                "1", "--idlg-iterations", "2", "--baselines", "1", "--data-dir", dataDir()};
        Path tightest = tmp.resolve("tightest");
        CommandRun t = CommandRun.of(concat(concat(common, "--out"), tightest.toString()));
        assertEquals(0, t.exitCode(), t.err() + t.out());
        Path rdp = tmp.resolve("rdp");
        CommandRun r = CommandRun.of(concat(concat(concat(concat(common, "--accountant"), "rdp"), "--keep-journal"),
                "--out=" + rdp));
        assertEquals(0, r.exitCode(), r.err() + r.out());
        String md = Files.readString(rdp.resolve("report.md"));
        assertTrue(md.contains("priced by the `rdp` accountant (Renyi DP alone"), md);
        assertTrue(Files.readString(tightest.resolve("report.md")).contains("priced by the `tightest` accountant"));
        assertTrue(Files.readString(rdp.resolve("config.json")).contains("\"accountant\" : \"rdp\""));
        double sigmaRdp = noise(md);
        double sigmaTightest = noise(Files.readString(tightest.resolve("report.md")));
        assertTrue(sigmaRdp > sigmaTightest * 1.01, "Renyi DP alone needs more noise: sigma = " + sigmaRdp + " against "
                + sigmaTightest);

        CommandRun resumed = CommandRun.of(concat(concat(common, "--resume"), "--out=" + rdp));
        assertEquals(2, resumed.exitCode(), resumed.err() + resumed.out());
        assertTrue(resumed.err().contains("was written by a campaign with other settings"), resumed.err());

        CommandRun unknown = CommandRun.of(concat(concat(common, "--accountant"), "moments"));
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("--accountant: unknown accountant 'moments'"), unknown.err());
    }

    /** Random-walk SGD's noise in a report's calibration table ("sigma = 1.234 per coordinate"). */
    private static double noise(String md) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("sigma = ([0-9.]+) per coordinate").matcher(md);
        assertTrue(m.find(), md);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void reportRefusesUnknownProtocolsNamingTheKnownOnes() {
        CommandRun r = CommandRun.of("attack", "report", "--protocols", "decorr", "--data-dir", dataDir());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--protocols: unknown protocol 'decorr'") && r.err().contains("decor"), r.err());
    }

    @Test
    void compareWritesOnePngAndOneMetricLinePerPanel(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("compare");
        CommandRun r = CommandRun.of("attack", "compare", "--dataset", "mnist", "--target-index", "0", "--attack-round", "1",
                "--data-dir", dataDir(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        List<String> panels = r.out().lines().filter(l -> l.contains("psnr=")).toList();
        assertEquals(3, panels.size(), r.out());
        assertTrue(panels.get(0).startsWith("D-SGD eavesdropper"), r.out());
        double dsgd = Double.parseDouble(panels.get(0).replaceAll(".*psnr=([^ ]+) .*", "$1"));
        assertTrue(dsgd > 30, "the D-SGD eavesdropper recovers the image: " + panels.get(0));
        for (String decor : panels.subList(1, 3)) {
            double psnr = Double.parseDouble(decor.replaceAll(".*psnr=([^ ]+) .*", "$1"));
            assertTrue(psnr < 20, "Decor at epsilon 8 hides it: " + decor);
        }
        assertTrue(Files.size(out.resolve("compare.png")) > 0);
    }
}
