package org.dpdl4j.experiments.campaign;

/** One line per observer position for reports: what it sees and the vector it attacks (spec table 8.5). */
final class ObserverNotes {
    private ObserverNotes() {
    }

    static String describe(String algorithm, String observer) {
        boolean mu2 = algorithm.startsWith("mu2");
        boolean relay = algorithm.endsWith("recal");
        return switch (observer) {
            case "gradient" -> "the gradient a step releases (to a parameter server, or read off the update):"
                    + " (sum_i clip_C(g_i) + N(0, (zC)^2 I)) / B";
            case "eavesdropper" -> relay ? "the baton (y, s) before and after the agent's step, and (oracle) its x_old and"
                    + " previous dual: -(s+ - s - beta (x_old - 2 tau lam_old - 2 y+ + y)) / (2 beta tau) = grad f_i + noise"
                    : "every message of a node: x_i^t and its half-step, hence ghat_i = g_i + w_i"
                    + " + sum_j v_ij";
            case "neighbour" -> "what the eavesdropper sees, minus the pairwise term v_ij it shares with the node";
            case "average model" -> "the average model of two rounds: the mean of the n released gradients, the other"
                    + " nodes' contributions known (worst case)";
            case "server" -> mu2 ? "a machine's messages of two rounds: m_t - m_(t-1) = Clip_S(q_t) + Y_t - Y_(t-1),"
                    + " matched at x_t and x_(t-1)"
                    : algorithm.equals("fedavg") ? "a client's update theta_k - theta = -eta g (one local step)"
                    : "a client's noisy clipped update Clip_S(Delta_k) + N(0, (zS)^2 I)";
            case "aggregate" -> "the global models of two rounds: the average of the updates (+ central noise), the"
                    + " other clients' updates known (worst case)";
            case "machine" -> "the broadcast query points; inverting the server's update gives"
                    + " M (gbar_t - gbar_(t-1)), the other machines' increments known (worst case)";
            case "increment" -> "only the increment s+ - s of the baton's dual sum, taken as a scaled gradient (its affine"
                    + " terms unknown, left as a bias)";
            case "server + colluders" -> "a client's revealed value minus the pairwise terms it shares with two"
                    + " colluding neighbours";
            default -> observer;
        };
    }
}
