package org.dpdl4j.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.ExactGaussianAccountant;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.ZCdpAccountant;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.protocol.recal.DecayingNoisePrivacy;
import org.dpdl4j.protocol.recal.PrimalDualAlgorithm;
import org.dpdl4j.protocol.recal.PublicationSensitivity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code recal}: the record-level guarantee of DP-RECAL (spec 5.4) for one agent's publications, or the noise that meets
 * a target. The output ends with {@code rho=}, one line per accountant ({@code epsilon_zcdp=}, the paper's zCDP
 * conversion, and {@code epsilon_gaussian=}, the exact curve of the composed Gaussian publications), the accountant of
 * the guarantee ({@code epsilon_accountant=}) and {@code epsilon=} (with {@code sigma=} before them when calibrating).
 */
@Command(name = "recal", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Privacy of DP-RECAL (record level, replace-one) for an agent that publishes K times.",
            "K is its local communication involvement (LCI); with sensitivity D (m + 1)/2 and noise std S zeta^((m-1)/2)"
                + " at its m-th publication (the drift of its unpublished state priced: least squares with tau <= 1/L) the"
                + " publications compose to one Gaussian mechanism of mu^2 = 2 rho, rho = D^2/(2 S^2) sum_m ((m + 1)/2)^2"
                + " zeta^-(m-1); with --paper-accounting every publication has sensitivity D, the state conditioned on as in"
                + " the paper (not a proven bound), and rho = D^2/(2 S^2) (zeta^-K - 1)/(zeta^-1 - 1). epsilon is the exact"
                + " Gaussian curve's at mu (by default), or the paper's rho + 2 sqrt(rho ln(1/delta)) (--accountant rdp);"
                + " the run's guarantee is that of its most active agent. With --epsilon instead of --sigma, prints the"
                + " sigma that meets it."})
public final class AccountRecalCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(converter = Converters.PositiveLong.class, names = "--lci", required = true, paramLabel = "K",
            description = "publications of the agent (the LCI for the run's guarantee)")
    private long lci;

    @Option(converter = Converters.Positive.class, names = "--sensitivity", required = true, paramLabel = "D",
            description = "L2 sensitivity of the first publication, 4 beta tau G_rec (1 x G_rec with the default steps; the m-th"
                    + " has (m + 1)/2 times it unless --paper-accounting)")
    private double sensitivity;

    @Option(converter = Converters.Positive.class, names = "--sigma", paramLabel = "S", description = "noise std of the first publication")
    private Double sigma;

    @Option(converter = Converters.Positive.class, names = "--epsilon", paramLabel = "E",
            description = "target epsilon: print the sigma that meets it instead of taking --sigma")
    private Double epsilon;

    @Option(converter = Converters.Positive.class, names = "--zeta", defaultValue = "1", paramLabel = "Z",
            description = "noise attenuation in (0, 1] (default: ${DEFAULT-VALUE})")
    private double zeta;

    @Option(converter = Converters.Probability.class, names = "--delta", required = true, paramLabel = "D", description = "delta of the (epsilon, delta) guarantee")
    private double delta;

    @Option(names = "--accountant", defaultValue = AccountantFactory.TIGHTEST, paramLabel = "A",
            description = "tightest (the exact Gaussian curve of the publications), rdp (Renyi DP alone: the paper's zCDP"
                    + " conversion) or additive (default: ${DEFAULT-VALUE}).")
    private String accountant;

    @Option(names = "--paper-accounting", description = "price every publication with sensitivity D, the agent's state"
            + " conditioned on as the paper does: the paper's figure, not a proven bound")
    private boolean paperAccounting;

    @Override
    public Integer call() {
        if (zeta > 1) {
            throw new ParameterException(spec.commandLine(), "--zeta must lie in (0, 1], got " + zeta
                    + " (an attenuation above 1 would make the noise grow)");
        }
        if ((sigma == null) == (epsilon == null)) {
            throw new ParameterException(spec.commandLine(), "give exactly one of --sigma (account it) and --epsilon (calibrate sigma to it)");
        }
        LedgerAccounting accounting;
        try {
            accounting = new LedgerAccounting(AccountantFactory.named(accountant), NeighbouringRelation.REPLACE_ONE);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--accountant: " + e.getMessage(), e);
        }
        PublicationSensitivity growth = paperAccounting ? PublicationSensitivity.CONDITIONED_ON_STATE
                : PublicationSensitivity.STATE_DRIFT;
        double s;
        try {
            s = sigma != null ? sigma : DecayingNoisePrivacy.calibrate(sensitivity, zeta, lci, epsilon, delta, accounting.factory(),
                    growth);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        double rho = DecayingNoisePrivacy.rho(sensitivity, s, zeta, lci, growth);
        if (Double.isInfinite(rho)) {
            throw new ParameterException(spec.commandLine(), String.format(Locale.ROOT, "with --zeta %s over --lci %d"
                    + " publications the noise decays to nothing (zeta^-K overflows), so the guarantee exceeds the largest"
                    + " number a double holds and no epsilon can be computed; raise --zeta towards 1 or lower --lci", zeta, lci));
        }
        double epsZcdp = ZCdp.epsilon(rho, delta);
        double epsGaussian = GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), delta);
        boolean exact = accounting.pricesGaussiansExactly() && epsGaussian <= epsZcdp;
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "Privacy statement: DP-RECAL, one agent, record-level DP, replace-one adjacency%n");
        out.printf(Locale.ROOT, "  %d publications, sensitivity %s%s, noise std %s x zeta^((m-1)/2), zeta = %s%n", lci, sensitivity,
                paperAccounting ? "" : " x (m + 1)/2 at the m-th", s, zeta);
        out.printf(Locale.ROOT, "  first publication: rho = %s; last: rho = %s; noise std at the last: %.6g%n",
                EpsilonFormat.upwardSignificant(DecayingNoisePrivacy.publicationRho(sensitivity, s, zeta, 1, growth), 6),
                EpsilonFormat.upwardSignificant(DecayingNoisePrivacy.publicationRho(sensitivity, s, zeta, lci, growth), 6),
                s * Math.pow(zeta, (lci - 1) / 2.0));
        out.printf(Locale.ROOT, "  composed over the publications (sequential: one Gaussian mechanism of mu = sqrt(2 rho) = %s) and"
                + " the max over agents (parallel): epsilon at delta = %s by %s%n", EpsilonFormat.upwardSignificant(Math.sqrt(2 * rho), 6),
                delta, exact
                ? "the exact Gaussian curve of mu" : "zCDP's conversion, epsilon = rho + 2 sqrt(rho ln(1/delta))");
        if (paperAccounting) {
            out.println("  Assumes every record's gradient is clipped and the agent's internal state is conditioned on (as in the paper).");
            out.println("  WARNING: this epsilon is not a guarantee: " + PrimalDualAlgorithm.DP_RECAL.notAGuarantee() + ".");
        } else {
            out.println("  Assumes least squares with every record's gradient clipped and the primal step tau <= 1/L (--step-scale"
                    + " <= 2 in a run), whose clipped gradient step is nonexpansive: the agent's unpublished state moves by at"
                    + " most 2 tau G_rec per publication.");
            out.println("  A proven bound when the steps follow a public feature bound (--feature-norm-bound) and the noise is"
                    + " secure; a run whose steps follow the agents' own data marks this epsilon not a guarantee.");
        }
        if (sigma == null) {
            out.printf(Locale.ROOT, "sigma=%s%n", s);
        }
        out.printf(Locale.ROOT, "rho=%s%nepsilon_zcdp=%s%nepsilon_gaussian=%s%nepsilon_accountant=%s%nepsilon=%s%n", rho, epsZcdp,
                epsGaussian, exact ? ExactGaussianAccountant.NAME : ZCdpAccountant.NAME, exact ? epsGaussian : epsZcdp);
        out.flush();
        return 0;
    }
}
