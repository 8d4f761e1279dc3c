package io.etcdoperator.snapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;

/**
 * Prints MiB/s of the save path's hashing alone (plain) and with encryption, and of decryption, over the same bytes
 * streamed in 64 KiB writes (gRPC message size) to a discarding store. Run by hand:
 * {@code java -cp <test+runtime classpath> io.etcdoperator.snapshot.EncryptionThroughput [MiB]}.
 */
final class EncryptionThroughput {

    public static void main(String[] args) throws IOException {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        byte[] block = new byte[64 << 10];
        new Random(1).nextBytes(block);
        EncryptionKey key = new EncryptionKey("bench", new byte[32]);
        rate(128, block, out -> out); // warm-up: the JIT compiles the GCM and SHA intrinsics first
        rate(128, block, out -> new EncryptingOutputStream(out, key));
        decryptRate(128, block, key);
        System.out.printf("plain   (sha256)          %7.1f MiB/s%n", rate(mib, block, out -> out));
        System.out.printf(
                "encrypt (AES-GCM+sha256)  %7.1f MiB/s%n",
                rate(mib, block, out -> new EncryptingOutputStream(out, key)));
        System.out.printf("encrypt+decrypt chained   %7.1f MiB/s%n", decryptRate(mib, block, key));
        System.out.printf(
                "heap used after runs      %7.1f MiB%n",
                (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1048576.0);
    }

    interface Wrap {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    private static double rate(int mib, byte[] block, Wrap wrap) throws IOException {
        var tally = new TallyingOutputStream(OutputStream.nullOutputStream());
        OutputStream out = wrap.wrap(tally);
        long start = System.nanoTime();
        for (long written = 0; written < (long) mib << 20; written += block.length) {
            out.write(block);
        }
        if (out instanceof EncryptingOutputStream encrypting) {
            encrypting.finish();
        }
        tally.digest();
        return mib / ((System.nanoTime() - start) / 1e9);
    }

    /** Encrypts straight into the decryptor: the rate of both together (a subtraction would be noise). */
    private static double decryptRate(int mib, byte[] block, EncryptionKey key) throws IOException {
        Path dir = Files.createTempDirectory("bench-keys");
        Files.write(dir.resolve("bench"), new byte[32]);
        var decrypting = new DecryptingOutputStream(
                new TallyingOutputStream(OutputStream.nullOutputStream()), Optional.of(new KeyRing(dir)));
        var encrypting = new EncryptingOutputStream(decrypting, key);
        long start = System.nanoTime();
        for (long written = 0; written < (long) mib << 20; written += block.length) {
            encrypting.write(block);
        }
        encrypting.finish();
        decrypting.close();
        return mib / ((System.nanoTime() - start) / 1e9);
    }
}
