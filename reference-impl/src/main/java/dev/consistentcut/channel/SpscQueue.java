package dev.consistentcut.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * An unbounded single-producer single-consumer FIFO queue of linked nodes, without locks: the
 * hand-off of a {@link Channel}'s buffers and in-band events from its sender to its receiver
 * (the shape of JCTools' {@code SpscLinkedQueue}, written here because JCTools is not among the
 * project's dependencies). Unbounded because a channel's bound is counted in buffers by the
 * channel itself (its credits), and events (barriers, end of partition) never wait.
 *
 * <p><b>Threading contract.</b> Exactly one producer thread calls {@link #offer}; exactly one
 * consumer thread calls {@link #peek}, {@link #poll}, {@link #forEachFromHead} and
 * {@link #replace}. {@link #size} and {@link #isEmpty} may be called by
 * any thread and are exact only when neither side runs. {@link #clear} only while neither runs.
 *
 * <p><b>Memory consistency.</b> The producer writes an element into a fresh node and then
 * publishes the node with a release store of its predecessor's {@code next}; the consumer reads
 * {@code next} with an acquire load before it reads the element. So actions of the producer
 * before {@code offer(e)} happen-before actions of the consumer after the {@code peek}/{@code poll}
 * that returns {@code e}. It has no jcstress test of its own: the channel's jcstress tests
 * (docs/stress-tests.md) hand buffers and in-band barriers over through it between two threads.
 */
public final class SpscQueue<E> {

    /** One element; {@code value} is written before the node is published and only by the consumer after. */
    static final class Node<E> {
        E value;
        volatile Node<E> next; // written with NEXT.setRelease, read with acquire (a volatile read)

        Node(E value) {
            this.value = value;
        }
    }

    private static final VarHandle NEXT;
    private static final VarHandle OFFERED;
    private static final VarHandle TAKEN;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            NEXT = l.findVarHandle(Node.class, "next", Node.class);
            OFFERED = l.findVarHandle(SpscQueue.class, "offered", long.class);
            TAKEN = l.findVarHandle(SpscQueue.class, "taken", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Producer only: the last node. */
    private Node<E> tail;
    /** Consumer only: the node before the first element (a sentinel whose value is null). */
    private Node<E> head;
    /** Elements offered, written by the producer (release), read by anyone. */
    @SuppressWarnings("unused")
    private volatile long offered;
    /** Elements taken, written by the consumer (release), read by anyone. */
    @SuppressWarnings("unused")
    private volatile long taken;

    public SpscQueue() {
        Node<E> sentinel = new Node<>(null);
        tail = sentinel;
        head = sentinel;
    }

    /** Producer: appends {@code e} (not null). Never waits. */
    public void offer(E e) {
        if (e == null) {
            throw new NullPointerException("element");
        }
        Node<E> n = new Node<>(e);
        NEXT.setRelease(tail, n); // publishes n and, before it, n.value
        tail = n;
        OFFERED.setRelease(this, (long) OFFERED.getOpaque(this) + 1);
    }

    /** Consumer: the first element, or null when none is visible. */
    public E peek() {
        Node<E> n = head.next;
        return n == null ? null : n.value;
    }

    /** Consumer: removes and returns the first element, or null when none is visible. */
    public E poll() {
        Node<E> n = head.next;
        if (n == null) {
            return null;
        }
        E e = n.value;
        n.value = null; // n becomes the sentinel
        head = n;
        TAKEN.setRelease(this, (long) TAKEN.getOpaque(this) + 1);
        return e;
    }

    /** Consumer: every visible element from the head on, in FIFO order, until {@code action} returns false. */
    public void forEachFromHead(java.util.function.Predicate<? super E> action) {
        for (Node<E> n = head.next; n != null; n = n.next) {
            if (!action.test(n.value)) {
                return;
            }
        }
    }

    /**
     * Consumer: replaces the first visible element that is {@code old} (identity) with
     * {@code replacement}; false if there is none. The producer never touches a published node's
     * element again, so the consumer may.
     */
    public boolean replace(E old, E replacement) {
        if (replacement == null) {
            throw new NullPointerException("replacement");
        }
        for (Node<E> n = head.next; n != null; n = n.next) {
            if (n.value == old) {
                n.value = replacement;
                return true;
            }
        }
        return false;
    }

    /** Elements offered and not taken (any thread; exact only while neither side runs). */
    public long size() {
        return (long) OFFERED.getAcquire(this) - (long) TAKEN.getAcquire(this);
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Every element, in FIFO order, to {@code sink}: only while neither side runs, or ordered with both by a lock. */
    public void forEachQuiescent(Consumer<? super E> sink) {
        for (Node<E> n = head.next; n != null; n = n.next) {
            sink.accept(n.value);
        }
    }

    /** Empties the queue; only while neither side runs. */
    public void clear() {
        Node<E> sentinel = new Node<>(null);
        tail = sentinel;
        head = sentinel;
        OFFERED.setRelease(this, 0L);
        TAKEN.setRelease(this, 0L);
    }
}
