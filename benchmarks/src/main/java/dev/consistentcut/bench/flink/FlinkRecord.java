package dev.consistentcut.bench.flink;

import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple4;

/**
 * The Flink job's record, the reference engine's {@code Record} as a tuple: {@code f0} source
 * index, {@code f1} offset, {@code f2} key, {@code f3} value. A tuple rather than a POJO so that it
 * serializes to 28 bytes (32 with Flink's length prefix) without per-field null flags.
 */
public final class FlinkRecord {

    public static final TypeInformation<Tuple4<Integer, Long, Long, Long>> TYPE =
            TypeInformation.of(new TypeHint<Tuple4<Integer, Long, Long, Long>>() {});

    /** Serialized size of one record on Flink's wire, with its 4-byte length prefix. */
    public static final int SERIALIZED_BYTES = 4 + 4 + 8 + 8 + 8;

    private FlinkRecord() {
    }
}
