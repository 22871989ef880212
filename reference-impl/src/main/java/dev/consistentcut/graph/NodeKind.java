package dev.consistentcut.graph;

/** A node of the job graph reads a source log or runs an operator (sinks are operators without outputs). */
public enum NodeKind {
    SOURCE,
    OPERATOR
}
