package dev.polygpu.cluster.wire;

import dev.polygpu.cluster.wire.WireException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM over an encrypted frame's body (layout in {@link WireCodec}): the nonce is the
 * {@link SharedSecret#NONCE_BYTES} bytes before the body, the associated data every byte before the nonce and then
 * the recipient's id. Stateless; each call makes its own {@link Cipher}.
 */
final class FrameCipher {
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";

    private FrameCipher() {
    }

    /**
     * Encrypts {@code frame[bodyAt, tagAt)} in place and writes the tag at {@code tagAt} (the frame's last
     * {@link WireCodec#TAG_BYTES} bytes).
     */
    static void seal(byte[] frame, int bodyAt, int tagAt, SecretKeySpec key, String recipient) {
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, frame, bodyAt, key, recipient);
            int n = c.doFinal(frame, bodyAt, tagAt - bodyAt, frame, bodyAt);
            if (n != frame.length - bodyAt) {
                throw new IllegalStateException("AES-GCM wrote " + n + " bytes, expected " + (frame.length - bodyAt));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to encrypt a frame: " + e.getMessage(), e);
        }
    }

    /**
     * The frame with its body {@code [bodyAt, tagAt)} decrypted in a copy (the same offsets as in the frame).
     *
     * @throws WireException {@link Reason#BAD_MAC} if the tag does not check out
     */
    static byte[] open(byte[] frame, int bodyAt, int tagAt, SecretKeySpec key, String recipient)
            throws WireException {
        byte[] plain = new byte[frame.length];
        try {
            Cipher c = cipher(Cipher.DECRYPT_MODE, frame, bodyAt, key, recipient);
            c.doFinal(frame, bodyAt, frame.length - bodyAt, plain, bodyAt);
        } catch (AEADBadTagException e) {
            throw new WireException(Reason.BAD_MAC, "the AES-GCM tag at offset " + tagAt + " does not match: the "
                    + "frame was altered, made with another secret, or sent to another member");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to decrypt a frame: " + e.getMessage(), e);
        }
        return plain;
    }

    private static Cipher cipher(int mode, byte[] frame, int bodyAt, SecretKeySpec key, String recipient)
            throws GeneralSecurityException {
        int nonceAt = bodyAt - SharedSecret.NONCE_BYTES;
        Cipher c = Cipher.getInstance(TRANSFORMATION);
        c.init(mode, key, new GCMParameterSpec(WireCodec.TAG_BYTES * 8, frame, nonceAt, SharedSecret.NONCE_BYTES));
        c.updateAAD(frame, 0, nonceAt);
        c.updateAAD(recipient.getBytes(StandardCharsets.UTF_8));
        return c;
    }
}
