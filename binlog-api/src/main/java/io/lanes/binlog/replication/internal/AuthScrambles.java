package io.lanes.binlog.replication.internal;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;

/**
 * The authentication responses of the password plugins. Passwords arrive as UTF-8 bytes that the caller wipes after use;
 * no method here keeps a reference to them.
 */
public final class AuthScrambles {
    private AuthScrambles() {
    }

    /** The password as UTF-8 bytes, encoded without going through a String. The caller wipes the result. */
    public static byte[] utf8(char[] password) {
        if (password == null || password.length == 0) {
            return new byte[0];
        }
        try {
            ByteBuffer bb = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(password));
            byte[] out = new byte[bb.remaining()];
            bb.get(out);
            if (bb.hasArray()) {
                Arrays.fill(bb.array(), (byte) 0);
            }
            return out;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the password is not valid UTF-16 text");
        }
    }

    /** mysql_native_password: SHA1(password) XOR SHA1(nonce + SHA1(SHA1(password))); empty for an empty password. */
    public static byte[] nativePassword(byte[] password, byte[] nonce) {
        return xorScramble("SHA-1", password, nonce, true);
    }

    /** caching_sha2_password fast path: SHA256(password) XOR SHA256(SHA256(SHA256(password)) + nonce). */
    public static byte[] cachingSha2(byte[] password, byte[] nonce) {
        return xorScramble("SHA-256", password, nonce, false);
    }

    /**
     * The two plugins' one scheme, with their hash H: H(password) XOR H(nonce + H(H(password))), or with the nonce after
     * H(H(password)) where {@code nonceFirst} is false; at most 20 bytes of the nonce count. Empty for an empty password.
     */
    private static byte[] xorScramble(String algorithm, byte[] password, byte[] nonce, boolean nonceFirst) {
        if (password.length == 0) {
            return new byte[0];
        }
        MessageDigest hash = digest(algorithm);
        byte[] stage1 = hash.digest(password);
        byte[] stage2 = hash.digest(stage1);
        int nonceLength = Math.min(nonce.length, 20);
        if (nonceFirst) {
            hash.update(nonce, 0, nonceLength);
            hash.update(stage2);
        } else {
            hash.update(stage2);
            hash.update(nonce, 0, nonceLength);
        }
        byte[] mix = hash.digest();
        for (int i = 0; i < stage1.length; i++) {
            stage1[i] ^= mix[i];
        }
        return stage1;
    }

    /**
     * caching_sha2_password full authentication without TLS: the NUL-terminated password XOR the nonce (repeated),
     * encrypted with the server's RSA public key (RSA/ECB/OAEPWithSHA-1AndMGF1Padding).
     */
    public static byte[] rsaEncryptPassword(byte[] password, byte[] nonce, String publicKeyPem) {
        byte[] plain = Arrays.copyOf(password, password.length + 1);
        try {
            for (int i = 0; i < plain.length; i++) {
                plain[i] ^= nonce[i % nonce.length];
            }
            Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
            rsa.init(Cipher.ENCRYPT_MODE, parsePublicKey(publicKeyPem));
            return rsa.doFinal(plain);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt the password with the server's RSA key: " + e.getMessage(),
                    e);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    /** An RSA public key in PEM ("-----BEGIN PUBLIC KEY-----", X.509 SubjectPublicKeyInfo). */
    public static PublicKey parsePublicKey(String pem) throws GeneralSecurityException {
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        if (pem.contains("BEGIN RSA PUBLIC KEY")) {
            throw new GeneralSecurityException("PKCS#1 RSA public keys are not supported; use a PEM public key");
        }
        return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    public static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is required by the JDK", e);
        }
    }
}
