package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PrivacyStatementTest {

    @Test
    void dpSgdStatementCarriesTheNumbersAndTheAssumptions() {
        PrivacyStatement statement = PrivacyStatement.forDpSgd(256.0 / 60000.0, 1.1, 14062, 1e-5);
        TightestAccountant acc = DpSgd.accountant(256.0 / 60000.0, 1.1, 14062);
        assertEquals(acc.epsilon(1e-5), statement.standard().epsilon(), 0.0);
        assertEquals(acc.epsilon(1e-5, Conversion.IMPROVED), statement.improved().epsilon(), 0.0);
        // the guarantee is the PLD's, below both Renyi conversions, and every accountant's bound is listed
        assertEquals(PldAccountant.NAME, statement.standard().accountant());
        RdpAccountant rdp = DpSgd.rdpAccountant(256.0 / 60000.0, 1.1, 14062);
        assertEquals(rdp.epsilon(1e-5), statement.standardBounds().get(RdpAccountant.NAME).epsilon(), 0.0);
        assertTrue(statement.standard().epsilon() < rdp.epsilon(1e-5, Conversion.IMPROVED));
        String text = statement.text();
        for (String expected : new String[] {"DP-SGD", "one training example", "example-level",
                "adding or removing", "ADD_OR_REMOVE_ONE", "Poisson", "q = 0.00426667", "z = 1.1", "Steps: 14062",
                "60.00 epochs", "delta = 1e-05", "from the pld accountant", "rdp: 3.0084", "optimal order 8.75", "2.5970",
                "optimal order 8)", "pld: ", "does not hold exactly", "hyperparameter tuning"}) {
            assertTrue(text.contains(expected), "statement lacks '" + expected + "':\n" + text);
        }
    }

    @Test
    void userLevelReplaceOneStatementForFixedSizeBatches() {
        RdpAccountant acc = new RdpAccountant(NeighbouringRelation.REPLACE_ONE)
                .compose(new SampledWithoutReplacementEvent(16, 4, new GaussianEvent(3.0)), 200);
        MechanismDescription d = new MechanismDescription("federated averaging with Gaussian noise", ProtectedUnit.USER,
                SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT, 0.25, 3.0, 200);
        String text = PrivacyStatement.of(acc, d, 1e-6).text();
        assertTrue(text.contains("all the data of one user") && text.contains("user-level")
                && text.contains("replacing") && text.contains("50.00 epochs") && text.contains("fixed size"), text);
    }

    @Test
    void inconsistentDescriptionsAreRejected() {
        RdpAccountant replace = new RdpAccountant(NeighbouringRelation.REPLACE_ONE);
        MechanismDescription poisson = new MechanismDescription("x", ProtectedUnit.EXAMPLE, SamplingScheme.POISSON,
                0.1, 1.0, 10);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PrivacyStatement.of(replace, poisson, 1e-5));
        assertTrue(e.getMessage().contains("ADD_OR_REMOVE_ONE"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MechanismDescription("x", ProtectedUnit.USER,
                SamplingScheme.FULL_BATCH, 0.5, 1.0, 10));
        assertThrows(IllegalArgumentException.class, () -> new MechanismDescription("x", ProtectedUnit.USER,
                SamplingScheme.POISSON, 0.0, 1.0, 10));
        assertThrows(IllegalArgumentException.class, () -> PrivacyStatement.forDpSgd(0.1, 1.0, 0, 1e-5));
    }
}
