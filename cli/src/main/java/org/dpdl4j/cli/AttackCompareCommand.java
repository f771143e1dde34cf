package org.dpdl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.ImageOutcome;
import org.dpdl4j.attacks.image.PanelGrid;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.attacks.inversion.InversionAttack;
import org.dpdl4j.attacks.inversion.RestartingAttack;
import org.dpdl4j.experiments.campaign.CampaignAttack;
import org.dpdl4j.attacks.observe.DecentralizedRun;
import org.dpdl4j.attacks.observe.CampaignSettings;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.attacks.observe.ScenarioRun;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j attack compare}: one MNIST training image reconstructed from what a D-SGD eavesdropper sees and
 * from what a Decor eavesdropper and a curious Decor neighbour see at one epsilon, side by side in
 * {@code compare.png}, with a {@code panel: psnr= ssim= label=} line per reconstruction.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Reconstruct one MNIST training image from a D-SGD eavesdropper's view and from a Decor"
                + " eavesdropper's and curious neighbour's view at one epsilon; writes compare.png.",
                "Prints one 'panel: psnr= ssim= label=' line per reconstruction."})
final class AttackCompareCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--dataset", defaultValue = "mnist", paramLabel = "NAME",
            description = "Data set: mnist (default ${DEFAULT-VALUE}).")
    String dataset;

    @Option(converter = Converters.NonNegativeInt.class, names = "--target-index", required = true, paramLabel = "I",
            description = "Index of the attacked image in the MNIST training set.")
    int targetIndex;

    @Option(converter = Converters.Positive.class, names = "--epsilon", defaultValue = "8", paramLabel = "E",
            description = "Epsilon Decor's noise is calibrated to, at delta 1e-5 (default ${DEFAULT-VALUE}).")
    double epsilon;

    @Option(names = "--attack", defaultValue = "analytic-ls", paramLabel = "NAME",
            description = "analytic-ls (least-squares inversion of the first layer) or idlg (default"
                    + " ${DEFAULT-VALUE}).")
    String attack;

    @Option(converter = Converters.NonNegativeInt.class, names = "--attack-round", defaultValue = "50", paramLabel = "T",
            description = "Gossip rounds before the attacked release (default ${DEFAULT-VALUE}).")
    int attackRound;

    @Option(names = "--seed", defaultValue = "1234", paramLabel = "S",
            description = "Master seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Mixin
    DataDirOption data;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory (default: runs/<time>-attack-compare).")
    Path out;

    /** One panel: which run, which observer, its caption. */
    private record Panel(String name, DecentralizedAlgorithm algorithm, String observer) {
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter console = spec.commandLine().getOut();
        if (!"mnist".equals(dataset.toLowerCase(Locale.ROOT))) {
            throw bad("--dataset: unknown data set '" + dataset + "' for attacks; supported: mnist");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw bad("--epsilon must be a positive finite number, got " + epsilon);
        }
        InversionAttack inversion = switch (attack) {
            case "analytic-ls" -> AnalyticInversion.leastSquares();
            case "idlg" -> RestartingAttack.idlg(CampaignAttack.defaultIdlg());
            default -> throw bad("--attack: unknown attack '" + attack + "'; use analytic-ls or idlg");
        };
        // --out is claimed before the data is read, so a taken directory is refused at once
        try (RunDirectory run = RunDirectory.of(out, "dpdl4j attack compare", "attack-compare")) {
            TrainTest mnist = Datasets.mnist(data.resolve(spec.commandLine()), PixelScaling.UNIT_INTERVAL);
            if (targetIndex < 0 || targetIndex >= mnist.train().size()) {
                throw bad("--target-index must lie in 0.." + (mnist.train().size() - 1) + ", got " + targetIndex);
            }
            RunWorkload workload;
            try {
                CampaignSettings d = CampaignSettings.defaults();
                workload = new RunWorkload(mnist.train(), mnist.test(), new int[] {targetIndex}, ImageShape.MNIST,
                        new CampaignSettings(seed, d.hiddenUnits(), d.learningRate(), d.clipNorm(), d.delta(), attackRound));
            } catch (IllegalArgumentException e) {
                throw bad(e.getMessage());
            }
            String eps = org.dpdl4j.experiments.campaign.RowKey.formatEpsilon(epsilon);
            List<Panel> panels = List.of(new Panel("D-SGD eavesdropper", DecentralizedAlgorithm.DSGD, "eavesdropper"),
                    new Panel("Decor eavesdropper, eps " + eps, DecentralizedAlgorithm.DECOR, "eavesdropper"),
                    new Panel("Decor neighbour, eps " + eps, DecentralizedAlgorithm.DECOR, "neighbour"));
            Map<DecentralizedAlgorithm, ScenarioRun> runs = new LinkedHashMap<>();
            runs.put(DecentralizedAlgorithm.DSGD,
                    new DecentralizedRun(DecentralizedAlgorithm.DSGD).run(workload, Double.POSITIVE_INFINITY));
            runs.put(DecentralizedAlgorithm.DECOR, new DecentralizedRun(DecentralizedAlgorithm.DECOR).run(workload, epsilon));
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("dataset", dataset);
            config.put("target_index", targetIndex);
            config.put("epsilon", epsilon);
            config.put("attack", attack);
            config.put("attack_round", attackRound);
            config.put("seed", seed);
            run.writeConfig(config, Provenance.capture(Map.of("master", seed),
                    spec.commandLine().getParseResult().originalArgs()));

            int label = workload.train().label(targetIndex);
            List<String> titles = new ArrayList<>(List.of("original"));
            List<PanelGrid.Cell> cells = new ArrayList<>(List.of(new PanelGrid.Cell(workload.truth(targetIndex).pixels(0),
                    "label " + label)));
            for (Panel panel : panels) {
                ScenarioRun source = runs.get(panel.algorithm());
                AttackCase c = source.cases().stream().filter(k -> k.provenance().observer().equals(panel.observer()))
                        .findFirst().orElseThrow(() -> new IllegalStateException(panel.algorithm() + " gave no case for "
                                + panel.observer()));
                AttackResult r = inversion.attack(c);
                ImageOutcome o = r.images().get(0);
                titles.add(panel.name());
                cells.add(new PanelGrid.Cell(r.reconstruction()[0], String.format(Locale.ROOT, "%.1f dB, SSIM %.2f",
                        o.psnr(), o.ssim())));
                console.printf(Locale.ROOT, "%s (round %d, noise/RMS %.3g): psnr=%.2f ssim=%.4f label=%d (true %d)%n",
                        panel.name(), c.provenance().round(), r.noise().ratio(), o.psnr(), o.ssim(), o.recoveredLabel(),
                        label);
            }
            Path png = run.file("compare.png");
            String title = String.format(Locale.ROOT, "%s on MNIST training image %d after %d gossip rounds", attack,
                    targetIndex, attackRound);
            AtomicFiles.replace(png, f -> new PanelGrid(ImageShape.MNIST, 4).writePng(title, titles,
                    List.of("image " + targetIndex), List.of(cells), f));
            console.println("wrote " + png);
            console.flush();
            return 0;
        }
    }
}
