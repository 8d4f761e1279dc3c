package io.etcdoperator.bench;

import java.util.Arrays;

/**
 * The dominator tree of a heap dump's objects under a virtual root that points at every GC root (Cooper, Harvey and
 * Kennedy's iterative algorithm over a depth-first order): an object's immediate dominator is the one object every
 * path from the roots to it passes through last, so what it dominates is what freeing it would free.
 */
final class Dominators {

    static final int ROOT = -1;

    private final int[] idom;
    private final int[] postorder; // reachable objects, children before parents
    private final int virtualRoot;

    private Dominators(int[] idom, int[] postorder, int virtualRoot) {
        this.idom = idom;
        this.postorder = postorder;
        this.virtualRoot = virtualRoot;
    }

    static Dominators of(HeapOwners.HeapDump dump) {
        int n = dump.count;
        int[][] succ = successors(dump);
        int[] number = new int[n + 1];
        int[] order = depthFirst(succ, n, number);
        int[][] pred = predecessors(succ, order, n);
        int[] idom = new int[n + 1];
        Arrays.fill(idom, -1);
        idom[n] = n;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int i = order.length - 2; i >= 0; i--) { // reverse postorder, the root (last) left out
                int v = order[i];
                int next = -1;
                for (int p : pred[v]) {
                    if (idom[p] != -1) {
                        next = next == -1 ? p : intersect(p, next, idom, number);
                    }
                }
                if (next != -1 && idom[v] != next) {
                    idom[v] = next;
                    changed = true;
                }
            }
        }
        return new Dominators(idom, Arrays.copyOf(order, order.length - 1), n);
    }

    /** Reachable objects, each after everything it dominates. */
    int[] order() {
        return postorder;
    }

    int idom(int object) {
        return idom[object] == virtualRoot ? ROOT : idom[object];
    }

    private static int[][] successors(HeapOwners.HeapDump dump) {
        int n = dump.count;
        long[] sortedIds = Arrays.copyOf(dump.ids, n);
        Integer[] byId = new Integer[n];
        for (int i = 0; i < n; i++) {
            byId[i] = i;
        }
        Arrays.sort(byId, (a, b) -> Long.compare(dump.ids[a], dump.ids[b]));
        for (int i = 0; i < n; i++) {
            sortedIds[i] = dump.ids[byId[i]];
        }
        int[][] succ = new int[n + 1][];
        for (int v = 0; v < n; v++) {
            int[] out = new int[dump.refStart[v + 1] - dump.refStart[v]];
            int k = 0;
            for (int r = dump.refStart[v]; r < dump.refStart[v + 1]; r++) {
                int at = Arrays.binarySearch(sortedIds, dump.refs[r]);
                if (at >= 0) {
                    out[k++] = byId[at];
                }
            }
            succ[v] = Arrays.copyOf(out, k);
        }
        succ[n] = dump.roots.stream()
                .mapToInt(id -> {
                    int at = Arrays.binarySearch(sortedIds, id);
                    return at >= 0 ? byId[at] : -1;
                })
                .filter(i -> i >= 0)
                .distinct()
                .toArray();
        return succ;
    }

    /** Postorder from the virtual root {@code n}; {@code number} gets each object's place in it. */
    private static int[] depthFirst(int[][] succ, int n, int[] number) {
        int[] order = new int[n + 1];
        int[] stack = new int[n + 1];
        int[] next = new int[n + 1];
        boolean[] seen = new boolean[n + 1];
        int count = 0;
        int top = 0;
        stack[top++] = n;
        seen[n] = true;
        while (top > 0) {
            int v = stack[top - 1];
            if (next[v] < succ[v].length) {
                int w = succ[v][next[v]++];
                if (!seen[w]) {
                    seen[w] = true;
                    stack[top++] = w;
                }
            } else {
                top--;
                number[v] = count;
                order[count++] = v;
            }
        }
        return Arrays.copyOf(order, count);
    }

    private static int[][] predecessors(int[][] succ, int[] order, int n) {
        int[] counts = new int[n + 1];
        for (int v : order) {
            for (int w : succ[v]) {
                counts[w]++;
            }
        }
        int[][] pred = new int[n + 1][];
        for (int v = 0; v <= n; v++) {
            pred[v] = new int[counts[v]];
        }
        for (int v : order) {
            for (int w : succ[v]) {
                pred[w][--counts[w]] = v;
            }
        }
        return pred;
    }

    private static int intersect(int a, int b, int[] idom, int[] number) {
        while (a != b) {
            while (number[a] < number[b]) {
                a = idom[a];
            }
            while (number[b] < number[a]) {
                b = idom[b];
            }
        }
        return a;
    }
}
