/**
 * Key material for pairwise secrets, from the JDK alone: {@link NodeKeyPair} is a node's X25519 key pair, with
 * which two nodes derive the same 32-byte edge secret that nobody else can compute, and {@link Hkdf} (HMAC-SHA256,
 * RFC 5869) turns the key-agreement output into that secret. Turning an edge secret into noise is done in
 * {@code org.dpdl4j.privacy.noise} ({@code SecureNoiseStreams}); there is no networking or key distribution here.
 */
package org.dpdl4j.privacy.secrets;
