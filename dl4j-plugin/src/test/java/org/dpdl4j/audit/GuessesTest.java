package org.dpdl4j.audit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GuessesTest {

    @Test
    void guessesInOnTopAndOutOnBottom() {
        double[] scores = {0.9, 0.1, 0.5, 0.8, 0.2, 0.4};
        boolean[] coins = {true, false, false, false, true, true};
        // Top two (0.9: in, right; 0.8: out, wrong), bottom two (0.1: out, right; 0.2: in, wrong).
        Guesses g = Guesses.of(scores, coins, 2, 2);
        assertEquals(4, g.guesses());
        assertEquals(2, g.correct());
        assertEquals(1, Guesses.of(scores, coins, 1, 0).correct());
        assertEquals(0, Guesses.of(scores, coins, 0, 0).correct());
        assertEquals(3, Guesses.of(scores, coins, 6, 0).correct());
    }

    @Test
    void refusesTooManyGuessesAndNonFiniteScores() {
        assertThrows(IllegalArgumentException.class, () -> Guesses.of(new double[]{1, 2}, new boolean[]{true, false}, 2, 1));
        assertThrows(IllegalArgumentException.class,
                () -> Guesses.of(new double[]{1, Double.NaN}, new boolean[]{true, false}, 1, 0));
    }
}
