package org.dpdl4j.runtime.engine;

/**
 * Parties 0..n-1 split into k contiguous blocks whose sizes differ by at most one (the first {@code n mod k} blocks
 * hold one more). Contiguous blocks keep the neighbours of a ring or torus mostly in the same block, so little crosses
 * between blocks, and make every block's rows a slice of the run's stacked arrays.
 *
 * @param parties n
 * @param starts  the first party of each block, then n
 */
public record PartyBlocks(int parties, int[] starts) {

    /** n parties in {@code blocks} blocks (fewer when there are fewer parties). */
    public static PartyBlocks of(int parties, int blocks) {
        if (parties < 1 || blocks < 1) {
            throw new IllegalArgumentException("split " + parties + " parties into " + blocks + " blocks: both must be at least 1");
        }
        int k = Math.min(parties, blocks);
        int[] starts = new int[k + 1];
        for (int b = 0; b < k; b++) {
            starts[b + 1] = starts[b] + parties / k + (b < parties % k ? 1 : 0);
        }
        return new PartyBlocks(parties, starts);
    }

    /** The number of blocks. */
    public int count() {
        return starts.length - 1;
    }

    /** The first party of block b. */
    public int first(int b) {
        return starts[b];
    }

    /** One past the last party of block b. */
    public int end(int b) {
        return starts[b + 1];
    }

    /** The parties of block b. */
    public int[] members(int b) {
        return java.util.stream.IntStream.range(first(b), end(b)).toArray();
    }
}
