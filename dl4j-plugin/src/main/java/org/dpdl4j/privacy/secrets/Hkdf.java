package org.dpdl4j.privacy.secrets;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/** HKDF with HMAC-SHA256 (RFC 5869): turns a Diffie-Hellman output into uniformly random keys. */
public final class Hkdf {
    private static final int HASH_LEN = 32;

    private Hkdf() {
    }

    /** Extract-then-expand: {@code length} bytes of key material bound to {@code salt} and {@code info}. */
    public static byte[] derive(byte[] inputKeyMaterial, byte[] salt, byte[] info, int length) {
        if (length < 1 || length > 255 * HASH_LEN) {
            throw new IllegalArgumentException("HKDF output length must be in [1, " + 255 * HASH_LEN + "], got " + length);
        }
        byte[] prk = hmac(salt == null || salt.length == 0 ? new byte[HASH_LEN] : salt, inputKeyMaterial);
        byte[] out = new byte[length];
        byte[] t = new byte[0];
        int done = 0;
        for (int i = 1; done < length; i++) {
            byte[] input = new byte[t.length + info.length + 1];
            System.arraycopy(t, 0, input, 0, t.length);
            System.arraycopy(info, 0, input, t.length, info.length);
            input[input.length - 1] = (byte) i;
            t = hmac(prk, input);
            int n = Math.min(HASH_LEN, length - done);
            System.arraycopy(t, 0, out, done, n);
            done += n;
        }
        Arrays.fill(prk, (byte) 0);
        return out;
    }

    static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
