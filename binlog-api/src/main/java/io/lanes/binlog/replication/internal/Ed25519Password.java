package io.lanes.binlog.replication.internal;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * MariaDB's {@code client_ed25519} response: an Ed25519 signature (RFC 8032) of the server's nonce, where the 64-byte
 * expanded secret is SHA-512 of the password itself (RFC 8032 hashes a 32-byte seed instead; for a password of exactly
 * 32 bytes the two coincide, which the tests use to check this class against the JDK's Ed25519).
 *
 * <p>The JDK's EdDSA API only accepts a 32-byte seed, so the curve arithmetic is done here with {@link BigInteger} in
 * extended twisted Edwards coordinates. It runs once per connection and is not constant-time: an attacker would need
 * fine timing of the client's signing step, which happens before anything is sent.
 */
public final class Ed25519Password {
    private static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
    private static final BigInteger L = BigInteger.ONE.shiftLeft(252)
            .add(new BigInteger("27742317777372353535851937790883648493"));
    private static final BigInteger D = BigInteger.valueOf(-121665).mod(P)
            .multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
    private static final BigInteger D2 = D.shiftLeft(1).mod(P);
    private static final BigInteger[] BASE = {
        new BigInteger("15112221349535400772501151409588531511454012693041857206046113283949847762202"),
        new BigInteger("46316835694926478169428394003475163141307993866256225615783033603165251855960"),
        BigInteger.ONE,
        new BigInteger("15112221349535400772501151409588531511454012693041857206046113283949847762202")
            .multiply(new BigInteger("46316835694926478169428394003475163141307993866256225615783033603165251855960"))
            .mod(P)};

    private Ed25519Password() {
    }

    /** The 64-byte signature (R || S) of {@code message} with the key derived from {@code password}. */
    public static byte[] sign(byte[] password, byte[] message) {
        MessageDigest sha512 = AuthScrambles.digest("SHA-512");
        byte[] h = sha512.digest(password);
        try {
            byte[] scalarBytes = Arrays.copyOf(h, 32);
            scalarBytes[0] &= (byte) 248;
            scalarBytes[31] &= 63;
            scalarBytes[31] |= 64;
            BigInteger a = littleEndian(scalarBytes);
            byte[] publicKey = encode(multiply(a, BASE));
            sha512.update(h, 32, 32);
            sha512.update(message);
            BigInteger r = littleEndian(sha512.digest()).mod(L);
            byte[] bigR = encode(multiply(r, BASE));
            sha512.update(bigR);
            sha512.update(publicKey);
            sha512.update(message);
            BigInteger k = littleEndian(sha512.digest()).mod(L);
            BigInteger s = r.add(k.multiply(a)).mod(L);
            byte[] sig = new byte[64];
            System.arraycopy(bigR, 0, sig, 0, 32);
            System.arraycopy(toLittleEndian32(s), 0, sig, 32, 32);
            Arrays.fill(scalarBytes, (byte) 0);
            return sig;
        } finally {
            Arrays.fill(h, (byte) 0);
        }
    }

    /** The 32-byte public key for {@code password} (what MariaDB stores for the account, base64 without padding). */
    public static byte[] publicKey(byte[] password) {
        byte[] h = AuthScrambles.digest("SHA-512").digest(password);
        byte[] scalarBytes = Arrays.copyOf(h, 32);
        scalarBytes[0] &= (byte) 248;
        scalarBytes[31] &= 63;
        scalarBytes[31] |= 64;
        Arrays.fill(h, (byte) 0);
        return encode(multiply(littleEndian(scalarBytes), BASE));
    }

    private static BigInteger[] add(BigInteger[] p1, BigInteger[] p2) {
        BigInteger a = p1[1].subtract(p1[0]).multiply(p2[1].subtract(p2[0])).mod(P);
        BigInteger b = p1[1].add(p1[0]).multiply(p2[1].add(p2[0])).mod(P);
        BigInteger c = p1[3].multiply(D2).multiply(p2[3]).mod(P);
        BigInteger d = p1[2].shiftLeft(1).multiply(p2[2]).mod(P);
        BigInteger e = b.subtract(a);
        BigInteger f = d.subtract(c);
        BigInteger g = d.add(c);
        BigInteger hh = b.add(a);
        return new BigInteger[] {e.multiply(f).mod(P), g.multiply(hh).mod(P), f.multiply(g).mod(P),
            e.multiply(hh).mod(P)};
    }

    private static BigInteger[] multiply(BigInteger scalar, BigInteger[] point) {
        BigInteger[] result = {BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE, BigInteger.ZERO};
        BigInteger[] addend = point;
        for (int i = 0; i < scalar.bitLength(); i++) {
            if (scalar.testBit(i)) {
                result = add(result, addend);
            }
            addend = add(addend, addend);
        }
        return result;
    }

    private static byte[] encode(BigInteger[] point) {
        BigInteger zInv = point[2].modInverse(P);
        BigInteger x = point[0].multiply(zInv).mod(P);
        BigInteger y = point[1].multiply(zInv).mod(P);
        byte[] out = toLittleEndian32(y);
        if (x.testBit(0)) {
            out[31] |= (byte) 0x80;
        }
        return out;
    }

    private static BigInteger littleEndian(byte[] b) {
        byte[] be = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            be[i] = b[b.length - 1 - i];
        }
        return new BigInteger(1, be);
    }

    private static byte[] toLittleEndian32(BigInteger v) {
        byte[] be = v.toByteArray();
        byte[] out = new byte[32];
        for (int i = 0; i < 32 && i < be.length; i++) {
            out[i] = be[be.length - 1 - i];
        }
        return out;
    }
}
