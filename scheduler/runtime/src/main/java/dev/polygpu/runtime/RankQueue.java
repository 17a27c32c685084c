package dev.polygpu.runtime;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.TreeSet;

/**
 * A {@link Scheduler}'s elements waiting to be placed, and the ranks that order them: each element's rank is
 * its bottom level (the number of elements on the longest chain of dependencies from it to the last element
 * submitted, itself included), kept up to date as elements are submitted and complete. The placeable ones
 * (parents all placed) are kept highest rank first, ties in submission order: the order the scheduler launches
 * them in and a cluster layer takes them in.
 *
 * <p>Implementation notes: not thread-safe on its own. Every method runs under the owning scheduler's lock,
 * which guards all state here and the rank, run and queue fields of the {@link Vertex}es; it is called by
 * whichever thread holds that lock (a submitting thread, the dispatcher, a stream's completion callback, a
 * cluster layer's thread), and takes no lock and calls no device itself. Invariant: a vertex's rank changes
 * only while it is out of the placeable set ({@link #setRank}, {@link #extendRun}), so the set stays ordered.
 * The rank propagation's work list ({@link #heap}) is empty between calls.
 */
final class RankQueue {
    /** Highest rank first, then oldest first: the order elements are placed and given in. */
    static final Comparator<Vertex> BY_RANK = (a, b) -> {
        int ra = rankOf(a);
        int rb = rankOf(b);
        return ra != rb ? Integer.compare(rb, ra) : Long.compare(a.id, b.id);
    };

    /** Submitted (or given back) elements not on a stream, not taken, not done. */
    private final LinkedHashSet<Vertex> pending = new LinkedHashSet<>();
    private final Collection<Vertex> pendingView = Collections.unmodifiableCollection(pending);
    /**
     * The pending elements whose parents are all placed (on a stream or done), {@link #BY_RANK}: what may be
     * launched now, and a superset of the ready elements.
     */
    private final TreeSet<Vertex> placeable = new TreeSet<>(BY_RANK);
    private final Collection<Vertex> placeableView = Collections.unmodifiableCollection(placeable);
    /** The rank propagation's work list: a binary max-heap on vertex ids, in its first {@link #heapSize}. */
    private Vertex[] heap = new Vertex[16];
    private int heapSize;
    private long rankPasses;

    // ---- the queue -------------------------------------------------------------------------------------------

    /** The pending elements, in submission order (given-back ones where they came back); read-only. */
    Collection<Vertex> pending() {
        return pendingView;
    }

    /** The placeable elements, highest rank first, ties oldest first; read-only. */
    Collection<Vertex> placeable() {
        return placeableView;
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    int pendingCount() {
        return pending.size();
    }

    boolean hasPlaceable() {
        return !placeable.isEmpty();
    }

    /** The first placeable element in rank order; there must be one. */
    Vertex firstPlaceable() {
        return placeable.first();
    }

    /** Puts {@code v} (pending) into the queue, and among the placeable elements if its parents are placed. */
    void enqueue(Vertex v) {
        pending.add(v);
        v.queued = true;
        if (v.unplacedParents == 0) {
            placeable.add(v);
            v.placeable = true;
        }
    }

    /** Takes the placeable {@code v} out of the queue: it goes on a stream or to a cluster layer. */
    void remove(Vertex v) {
        placeable.remove(v);
        v.placeable = false;
        pending.remove(v);
        v.queued = false;
    }

    /**
     * {@code v} was just placed (launched, or completed from pending or from a cluster layer): its children stop
     * waiting for it, and those that wait for no other parent become placeable.
     */
    void placed(Vertex v) {
        List<Vertex> children = v.children;
        if (children == null) {
            return;
        }
        v.children = null;
        for (Vertex c : children) {
            if (--c.unplacedParents == 0 && c.queued && !c.placeable) {
                placeable.add(c);
                c.placeable = true;
            }
        }
    }

    // ---- ranks -----------------------------------------------------------------------------------------------

    /** {@code v}'s rank now: its own, or the one its run gives it. */
    static int rankOf(Vertex v) {
        Vertex.Run run = v.run;
        if (run == null) {
            return v.rank;
        }
        long r = run.top - v.pos;
        return r >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) r;
    }

    /**
     * Links the just submitted {@code v} (its rank set to its own: 1, or what it came with) to its parents and
     * raises the ranks of its outstanding ancestors. An element that follows the last element of a run (which
     * has no other child), and whose other outstanding parents are all in that run, continues the run
     * ({@link Vertex.Run}) if that last element ranks at most one above it; that raises the whole run at once,
     * so a chain appended one element at a time costs O(1) per element however long its outstanding part, also
     * when writers and readers of the same arrays alternate (each element waits for the one before it and for
     * some earlier ones). Otherwise the ranks rise one ancestor at a time ({@link #raiseAncestors}), and the
     * run of any parent that gets a child outside it is dissolved into plain ranks first.
     */
    void linkAndRank(Vertex v) {
        int live = 0;
        for (Vertex p : v.parents) {
            if (p.state != Vertex.State.DONE) {
                live++;
                if (p.unplaced()) {
                    p.addChild(v);
                }
            }
        }
        Vertex tail = null;
        for (Vertex p : v.parents) {
            if (p.state != Vertex.State.DONE && p.childCount == 0
                    && (p.run == null ? live == 1 : p.run.last() == p)) {
                tail = p;
                break;
            }
        }
        boolean continues = tail != null && rankOf(tail) <= (long) v.rank + 1;
        if (continues && live > 1) {
            for (Vertex p : v.parents) {
                if (p.state != Vertex.State.DONE && p.run != tail.run) {
                    continues = false;
                    break;
                }
            }
        }
        for (Vertex p : v.parents) {
            if (p.state != Vertex.State.DONE) {
                if (!continues && p.run != null) {
                    dissolve(p.run);
                }
                p.childCount++;
            }
        }
        if (continues) {
            extendRun(tail, v);
        } else {
            raiseAncestors(v);
        }
    }

    /**
     * Appends {@code v} to the run that ends with {@code tail}, one of its parents (starting a run there if
     * {@code tail} is in none, which it may only when it is {@code v}'s one outstanding parent), and raises the
     * run's ranks to {@code v}'s rank plus the distance to it; if they rose, raises the ancestors of the run's
     * first member too (the other members' outstanding parents are all in the run).
     */
    private void extendRun(Vertex tail, Vertex v) {
        Vertex.Run run = tail.run;
        if (run == null) {
            run = new Vertex.Run();
            tail.run = run;
            tail.pos = 0;
            run.top = tail.rank;
            run.add(tail);
        }
        v.run = run;
        v.pos = tail.pos + 1;
        run.add(v);
        long top = (long) v.rank + v.pos;
        if (top > run.top) {
            // At most one member waits among the placeable ones: the first not yet placed (the members
            // before it are on streams, the ones after it wait for it).
            Vertex moving = null;
            for (int i = 0; i < run.size(); i++) {
                Vertex m = run.get(i);
                if (m.state != Vertex.State.LAUNCHED) {
                    moving = m.placeable ? m : null;
                    break;
                }
            }
            if (moving != null) {
                placeable.remove(moving);
            }
            run.top = top;
            if (moving != null) {
                placeable.add(moving);
            }
            raiseAncestors(run.first());
        }
    }

    /** Gives every member of {@code run} its rank of now as its own, and ends the run. */
    private static void dissolve(Vertex.Run run) {
        for (int i = 0; i < run.size(); i++) {
            Vertex m = run.get(i);
            m.rank = rankOf(m);
        }
        for (int i = 0; i < run.size(); i++) {
            run.get(i).run = null;
        }
        while (run.size() > 0) {
            run.removeFirst();
        }
    }

    /**
     * {@code v} completed: it leaves its run, from the front as members normally do (a child completes after
     * its parent), or by dissolving the run if it completed out of turn (a launch refused).
     */
    static void leaveRun(Vertex v) {
        Vertex.Run run = v.run;
        if (run == null) {
            return;
        }
        if (run.first() == v) {
            v.rank = rankOf(v);
            run.removeFirst();
            v.run = null;
        } else {
            dissolve(run);
        }
    }

    /**
     * Raises the rank of each outstanding ancestor of {@code v} to at least its distance from {@code v} plus
     * {@code v}'s rank, stopping where a rank does not increase. Iterative (chains may be thousands of elements
     * long), and in decreasing submission order: a vertex's children come after it, so by the time a vertex is
     * taken off the work list every child that could raise it has been, and each vertex is handled once per
     * call. Done vertices are skipped: their rank no longer matters, and they forgot their parents. Costs one
     * step per ancestor whose rank rises (the members of a run, which it does not enter, aside).
     */
    private void raiseAncestors(Vertex v) {
        long pass = ++rankPasses;
        for (Vertex u = v; u != null; u = popHeap()) {
            int ru = rankOf(u);
            int r = ru == Integer.MAX_VALUE ? Integer.MAX_VALUE : ru + 1;
            for (Vertex p : u.parents) {
                if (p.state != Vertex.State.DONE && rankOf(p) < r) {
                    if (p.run != null) {
                        // Not reached in practice: a parent with a child outside its run had the run dissolved
                        // when that child came. Plain ranks are right whatever happened.
                        dissolve(p.run);
                    }
                    setRank(p, r);
                    if (p.rankPass != pass) {
                        p.rankPass = pass;
                        pushHeap(p);
                    }
                }
            }
        }
    }

    /** Sets the rank of a vertex outside any run, keeping the placeable set ordered. */
    private void setRank(Vertex p, int rank) {
        if (p.placeable) {
            placeable.remove(p);
            p.rank = rank;
            placeable.add(p);
        } else {
            p.rank = rank;
        }
    }

    private void pushHeap(Vertex v) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, 2 * heapSize);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent].id >= v.id) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = v;
    }

    /** Removes and returns the vertex with the highest id on the work list, or null if it is empty. */
    private Vertex popHeap() {
        if (heapSize == 0) {
            return null;
        }
        Vertex top = heap[0];
        Vertex last = heap[--heapSize];
        heap[heapSize] = null;
        if (heapSize > 0) {
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= heapSize) {
                    break;
                }
                if (child + 1 < heapSize && heap[child + 1].id > heap[child].id) {
                    child++;
                }
                if (heap[child].id <= last.id) {
                    break;
                }
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = last;
        }
        return top;
    }

    /**
     * The lowest rank among the {@code slots} highest-ranked of {@code onStreams} and the ready elements here
     * (parents complete, waiting for the window), or 0 if there are fewer than {@code slots}: the device's
     * floor rank ({@link Scheduler#floorRank}). Linear in {@code onStreams} and the placeable elements passed
     * before {@code slots} ready ones are found.
     */
    int floorRank(int slots, Collection<Vertex> onStreams) {
        int[] ranks = new int[onStreams.size() + slots];
        int count = 0;
        for (Vertex v : onStreams) {
            ranks[count++] = rankOf(v);
        }
        int ready = 0;
        // Highest rank first: the first ready ones found are the highest-ranked ready ones.
        for (Iterator<Vertex> it = placeable.iterator(); it.hasNext() && ready < slots;) {
            Vertex v = it.next();
            if (v.parentsDone()) {
                ranks[count++] = rankOf(v);
                ready++;
            }
        }
        if (count < slots) {
            return 0;
        }
        Arrays.sort(ranks, 0, count);
        return ranks[count - slots];
    }
}
