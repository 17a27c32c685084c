/**
 * The cluster's messages and their binary formats. Public API: the {@link dev.polygpu.cluster.wire.Message}
 * records, {@link dev.polygpu.cluster.wire.WireCodec}, {@link dev.polygpu.cluster.wire.SharedSecret} and
 * {@link dev.polygpu.cluster.wire.WireException}; everything package-private here is internal.
 *
 * <p>Every frame is an explicit big-endian binary layout written by hand (no Java serialization anywhere) and
 * ends with an HMAC-SHA256 over all its other bytes, keyed by the secret the members share. A frame is decoded
 * only after its MAC checks out, and then strictly: every count and length is checked against the bytes that
 * remain before anything is allocated, and enums travel by name. The transport (Hazelcast) only carries the
 * resulting {@code byte[]}; it is not part of this package.
 *
 * <p>This package owns the formats only. It may not depend on Hazelcast or on the steal protocol's state: it
 * knows what a message says, not what a member does with it.
 */
package dev.polygpu.cluster.wire;
