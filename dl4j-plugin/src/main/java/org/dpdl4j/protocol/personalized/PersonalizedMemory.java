package org.dpdl4j.protocol.personalized;

import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;

/**
 * What personalized learning holds: the users' data in double precision (twice: as the users and as their local
 * problems), their similarity weights as a dense n x n matrix, the users' models as an
 * [n, p] matrix (with the objective's n x n product of the models), the wake-up schedule of every tick, and by method:
 * model propagation's dense propagation matrix (as an array and as an ND4J matrix), gossip ADMM's copies, secondary
 * variables and duals of every neighbour's model; and one user at a time, the eigenvalues of its p x p Gram matrix (its
 * local smoothness) and for the local models of both the Newton steps on its p x p Hessian.
 *
 * @param protocol the protocol's name
 * @param kind     the method
 * @param data     the users' data
 * @param users    n
 * @param ticks    the ticks (one user wakes per tick)
 * @param links    the non-zero similarity weights (both directions), for ADMM's per-neighbour variables
 */
record PersonalizedMemory(String protocol, PersonalizedProtocol.Kind kind, DataShape data, int users, long ticks, long links) {

    MemoryEstimate estimate() {
        double n = users;
        double p = data.features();
        boolean local = kind == PersonalizedProtocol.Kind.MODEL_PROPAGATION || kind == PersonalizedProtocol.Kind.ADMM;
        MemoryEstimate.Builder b = MemoryEstimate.of(protocol + " with " + users + " users of dimension " + data.features());
        b.arrays("the users' data in double precision, as the users and as their local problems", 2 * data.examples(),
                data.valuesPerExample(), 8);
        b.add("the similarity weights and the models' products", 3 * 8 * n * n, 0);
        b.arrays("the users' models", 3 * n, p, 8);
        b.heap("the wake-up schedule", 4.0 * ticks);
        if (kind == PersonalizedProtocol.Kind.MODEL_PROPAGATION) {
            b.add("the propagation matrix", 8 * n * n, 8 * n * n);
        }
        if (kind == PersonalizedProtocol.Kind.ADMM) {
            b.arrays("the copies, secondary variables and duals of the neighbours' models", 5.0 * links, p, 8);
        }
        // each user's local smoothness from the eigenvalues of its p x p Gram matrix, and the local models' Newton steps
        // on a p x p Hessian, one user at a time
        b.add(local ? "a user's p x p Gram matrix, eigenvalues and Newton step" : "a user's p x p Gram matrix and its eigenvalues",
                3 * 8 * p * p, 3 * 8 * p * p);
        b.knob("--rounds", "ticks", ticks, t -> new PersonalizedMemory(protocol, kind, data, users, t, links).estimate());
        return b.fix("fewer users (--users) or a smaller dimension (--dim)").build();
    }
}
