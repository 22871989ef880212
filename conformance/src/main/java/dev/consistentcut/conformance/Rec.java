package dev.consistentcut.conformance;

/**
 * One record of a conformance job: record {@code off} of source task {@code src}, its key (a
 * function of the run's seed, the source and the offset: {@link RunSpec#key}), and the task that
 * last sent it ({@code via}, so that the receiver can name the channel it came on). A Flink POJO
 * (public fields, a no-argument constructor), serialized by Flink's PojoSerializer.
 */
public class Rec {
    public String src;
    public int off;
    public int key;
    public String via;

    public Rec() {
    }

    public Rec(String src, int off, int key, String via) {
        this.src = src;
        this.off = off;
        this.key = key;
        this.via = via;
    }

    /** The record as the trace names it: {@code {"src": ..., "off": ...}}. */
    public java.util.Map<String, Object> traceForm() {
        return TraceLog.record(src, off);
    }

    /** {@code src/off}, the record's identity. */
    public String id() {
        return src + "/" + off;
    }
}
