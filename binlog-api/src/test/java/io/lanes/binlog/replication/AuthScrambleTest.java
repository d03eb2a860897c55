package io.lanes.binlog.replication;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.replication.internal.AuthScrambles;
import io.lanes.binlog.replication.internal.Ed25519Password;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The password scrambles and signatures, checked against independent implementations and published vectors. */
class AuthScrambleTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void ed25519MatchesRfc8032TestVector1() {
        // RFC 8032 section 7.1, TEST 1: MariaDB hashes the password as RFC 8032 hashes the 32-byte secret key
        byte[] secret = HEX.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
        assertEquals("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
                HEX.formatHex(Ed25519Password.publicKey(secret)));
        assertEquals("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                + "d25bf5f0595bbe24655141438e7a100b", HEX.formatHex(Ed25519Password.sign(secret, new byte[0])));
    }

    @Test
    void ed25519EqualsTheJdkForThirtyTwoBytePasswordsAndVerifiesForAnyLength() throws Exception {
        Random r = new Random(42);
        KeyFactory kf = KeyFactory.getInstance("Ed25519");
        for (int i = 0; i < 20; i++) {
            byte[] nonce = new byte[32];
            r.nextBytes(nonce);
            byte[] pw32 = new byte[32];
            r.nextBytes(pw32);
            PrivateKey jdkKey = kf.generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, pw32));
            Signature jdk = Signature.getInstance("Ed25519");
            jdk.initSign(jdkKey);
            jdk.update(nonce);
            assertArrayEquals(jdk.sign(), Ed25519Password.sign(pw32, nonce));

            byte[] password = ("pässwörd-" + i + "-" + "x".repeat(i * 7)).getBytes(StandardCharsets.UTF_8);
            byte[] sig = Ed25519Password.sign(password, nonce);
            PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(HEX.parseHex("302a300506032b6570032100"
                    + HEX.formatHex(Ed25519Password.publicKey(password)))));
            Signature verify = Signature.getInstance("Ed25519");
            verify.initVerify(pub);
            verify.update(nonce);
            assertTrue(verify.verify(sig), "signature " + i + " verifies with the JDK");
            nonce[0] ^= 1;
            verify.initVerify(pub);
            verify.update(nonce);
            assertFalse(verify.verify(sig), "and not for another nonce");
        }
    }

    @Test
    void nativePasswordIsWhatTheServerCanCheckWithItsStoredHash() {
        byte[] pw = "secret".getBytes(StandardCharsets.UTF_8);
        byte[] nonce = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);
        byte[] scramble = AuthScrambles.nativePassword(pw, nonce);
        MessageDigest sha1 = AuthScrambles.digest("SHA-1");
        // the server stores SHA1(SHA1(pw)): as in MySQL's mysql.user, "*" + hex upper case
        byte[] stored = sha1.digest(sha1.digest(pw));
        assertEquals("*14E65567ABDB5135D0CFD9A70B3032C179A49EE7", "*" + HEX.formatHex(stored).toUpperCase());
        sha1.update(nonce);
        sha1.update(stored);
        byte[] mix = sha1.digest();
        for (int i = 0; i < mix.length; i++) {
            mix[i] ^= scramble[i];
        }
        assertArrayEquals(stored, sha1.digest(mix));
        assertEquals(0, AuthScrambles.nativePassword(new byte[0], nonce).length);
    }

    @Test
    void cachingSha2IsWhatTheServerCanCheckWithItsCachedHash() {
        byte[] pw = "secret".getBytes(StandardCharsets.UTF_8);
        byte[] nonce = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);
        byte[] scramble = AuthScrambles.cachingSha2(pw, nonce);
        MessageDigest sha = AuthScrambles.digest("SHA-256");
        byte[] stage2 = sha.digest(sha.digest(pw));
        sha.update(stage2);
        sha.update(nonce);
        byte[] mix = sha.digest();
        for (int i = 0; i < mix.length; i++) {
            mix[i] ^= scramble[i];
        }
        assertArrayEquals(stage2, sha.digest(mix));
    }

    @Test
    void passwordCharsBecomeUtf8WithoutAString() {
        assertArrayEquals("pä€".getBytes(StandardCharsets.UTF_8), AuthScrambles.utf8("pä€".toCharArray()));
        assertEquals(0, AuthScrambles.utf8(new char[0]).length);
    }
}
