package dev.consistentcut.channel;

import dev.consistentcut.message.Record;
import java.util.ArrayDeque;

/**
 * The fields {@link SpscChannel}'s sender and receiver write per record, each side's on cache lines
 * of its own. Sender and receiver run on different cores; when the sender's record count and the
 * receiver's taken count shared a 64-byte line (as one class's fields laid out by the JVM do),
 * every record moved that line between the cores twice. The JVM lays a superclass's fields out
 * before its subclass's, so padding classes between the two sides keep them apart (JCTools'
 * padding by inheritance, as in its {@code SpscArrayQueue}): the sender's fields, 128 bytes of
 * padding (two lines: the adjacent-line prefetcher pairs lines), the receiver's fields, padding
 * again, then the rest of the channel. The fields are package-private for {@link SpscChannel}
 * alone, which documents them; nothing else in the package touches them.
 */
abstract class SpscChannelFields {

    /** Sender only. The buffer being filled. */
    Record[] open;
    /** Sender only. Records in {@link #open}. */
    int openSize;
    /** Sender only. The sequence number of {@link #open}'s first record. */
    long openFirstSeq;
    /** Sender only. Records sent since the last restore (open buffer included). */
    long sent;
    /** Sender only. Buffers handed over since the last restore. */
    long handedOver;
    /** Written by the sender: {@link #sent}, published per record with a release store for the record count. */
    volatile long sentView;
    /**
     * Sender only. Buffers handed over that the receiver may not have read to their end, in
     * order: their credits, and what an overtaking barrier overtakes. (Also here because its
     * reference fills the sender's last 4 bytes: a gap there would take a field of a subclass,
     * the receiver's included.)
     */
    final ArrayDeque<RecordBuffer> retained = new ArrayDeque<>();
}

/** 128 bytes between the sender's fields and the receiver's. */
abstract class SpscChannelSenderPad extends SpscChannelFields {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The receiver's per-record fields. */
abstract class SpscChannelReceiverFields extends SpscChannelSenderPad {
    /** Receiver only. The buffer being read. */
    RecordBuffer current;
    /** Receiver only. The next record of {@link #current}. */
    int index;
    /**
     * Records the receiver has taken (low bits; the receiver adds one by compare-and-set) and the
     * priority flag while the priority lane is not empty (set by whoever puts a priority element,
     * cleared by the receiver when it delivered the last; both under the channel's lock).
     */
    volatile long state;
}

/** 128 bytes between the receiver's fields and the rest of the channel. */
abstract class SpscChannelReceiverPad extends SpscChannelReceiverFields {
    long q00, q01, q02, q03, q04, q05, q06, q07;
    long q08, q09, q10, q11, q12, q13, q14, q15;
}
