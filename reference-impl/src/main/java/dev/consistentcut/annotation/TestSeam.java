package dev.consistentcut.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks what main code holds, or shows more widely than the engine needs, only so that tests can
 * reach it: a query of internal bookkeeping, a constructor or parameter through which a test hands
 * in a broken part, a step left overridable for a broken twin (Flink's {@code @VisibleForTesting}).
 * The engine's own code does not rely on it beyond the class that declares it. Every use is listed,
 * with why, in docs/architecture.md ("Test seams"), and a test keeps that list complete.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.CONSTRUCTOR, ElementType.METHOD, ElementType.FIELD})
public @interface TestSeam {
}
