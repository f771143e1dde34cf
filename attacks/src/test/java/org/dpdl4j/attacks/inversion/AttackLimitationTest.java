package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.dpdl4j.attacks.matching.MatchingEngine;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * What an attack cannot attack follows from the network's structure, before any data: the limits say so in words
 * (no class or constant names), and the attacks refuse the same cases with the same words.
 */
class AttackLimitationTest {
    private static final TargetNetwork LENET = TargetNetwork.of(ModelKind.DLG_LENET.network(784, 10, ModelOptions.defaults()));
    private static final TargetNetwork MLP = TargetNetwork.of(ModelKind.MLP.network(784, 10, ModelOptions.defaults()));

    private static DlgConfig engine(MatchingEngine engine) {
        return DlgConfig.defaults().withEngine(engine, DataType.DOUBLE);
    }

    @Test
    void theClosedFormEngineRefusesConvolutionsAndTheAnalyticInversionAConvolutionFirst() {
        String closedForm = new DlgAttack(engine(MatchingEngine.CLOSED_FORM)).limitation(LENET, 1).orElseThrow();
        assertTrue(closedForm.contains("closed-form engine") && closedForm.contains("convolutions"), closedForm);
        assertEquals(Optional.of(closedForm), new IdlgAttack(engine(MatchingEngine.CLOSED_FORM)).limitation(LENET, 1));
        String analytic = new AnalyticInversion().limitation(LENET, 1).orElseThrow();
        assertTrue(analytic.contains("starts with a convolution") && analytic.contains("DLG"), analytic);
        for (String why : new String[] {closedForm, analytic}) {
            assertFalse(why.contains("MatchingEngine") || why.contains("TargetNetwork") || why.contains("SAMEDIFF"), why);
        }
        // the auto attack's quick matching uses the engine given: refused as well, whatever it would have chosen
        StrongestAttack auto = new StrongestAttack(new AnalyticInversion(), new IdlgAttack(engine(MatchingEngine.CLOSED_FORM)),
                new InvertingGradientsAttack(InvertingGradientsConfig.defaults()));
        assertEquals(Optional.of(closedForm), auto.limitation(LENET, 1));
    }

    @Test
    void whatAnAttackHandlesHasNoLimitation() {
        assertEquals(Optional.empty(), new DlgAttack(engine(MatchingEngine.AUTO)).limitation(LENET, 4));
        assertEquals(Optional.empty(), new DlgAttack(engine(MatchingEngine.CLOSED_FORM)).limitation(MLP, 4));
        assertEquals(Optional.empty(), new AnalyticInversion().limitation(MLP, 1));
        assertTrue(new AnalyticInversion().limitation(MLP, 2).orElseThrow().contains("single example"));
        assertTrue(new IdlgAttack(engine(MatchingEngine.AUTO)).limitation(MLP, 2).orElseThrow().contains("single example"));
    }
}
