package org.dpdl4j.cli.bench;

import org.dpdl4j.cli.Converters;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.CalibrationResult;
import org.dpdl4j.privacy.accounting.correlated.CalibrationTarget;
import org.dpdl4j.privacy.accounting.correlated.CorrelatedNoise;
import org.dpdl4j.privacy.accounting.correlated.KappaResult;
import org.dpdl4j.privacy.accounting.correlated.NoisePairCalibrator;
import org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.concurrent.Callable;

/** Wall time of the SecRDP accountant and of a full (sigma_cdp, sigma_cor) calibration on a large graph. */
@Command(name = "accountant", mixinStandardHelpOptions = true,
        description = "Seconds for the Decor accountant (kappa) and a full noise-pair calibration on n nodes.")
final class AccountantBench implements Callable<Integer> {
    @Option(converter = Converters.PositiveInt.class, names = "--nodes", defaultValue = "1000", description = "Number of nodes; default ${DEFAULT-VALUE}.")
    int nodes;

    @Option(names = "--topology", defaultValue = "ring", description = "Topology; default ${DEFAULT-VALUE}.")
    String topology;

    @Option(names = "--adversary", defaultValue = "eavesdropper", description = "eavesdropper (default), curious or colluding:Q.")
    String adversary;

    @Override
    public Integer call() {
        Adversary a = Adversary.parse(adversary);
        long t0 = System.nanoTime();
        Graph g = TopologySpec.resolve(topology, Integer.toString(nodes), 1);
        SecRdpAccountant accountant = new SecRdpAccountant(g);
        KappaResult k = accountant.kappa(new CorrelatedNoise(10.0, 50.0), a);
        long t1 = System.nanoTime();
        CalibrationResult r = new NoisePairCalibrator(accountant).calibrate(CalibrationTarget.decor(10, 1e-5, 3500, 1.0, a));
        long t2 = System.nanoTime();
        System.out.printf(Locale.ROOT, "%s, n=%d, %s: kappa=%.6g (%s) in %.2f s (graph, spectrum and one kappa)%n", topology, nodes,
                a.describe(), k.kappa(), k.exactness(), (t1 - t0) / 1e9);
        System.out.printf(Locale.ROOT, "calibration of %d feasible pairs for epsilon=10 over T=3500 in %.2f s; total %.2f s%n",
                r.feasible().size(), (t2 - t1) / 1e9, (t2 - t0) / 1e9);
        System.out.printf(Locale.ROOT, "seconds=%.2f%n", (t2 - t0) / 1e9);
        return 0;
    }
}
