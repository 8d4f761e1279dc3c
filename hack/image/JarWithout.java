import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites a jar without the entries whose names start with any of the given prefixes, keeping every other entry
 * (and its time) as it was. Usage: java JarWithout.java JAR PREFIX... (hack/image.sh).
 */
public class JarWithout {
    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        List<String> prefixes = List.of(args).subList(1, args.length);
        Path out = jar.resolveSibling(jar.getFileName() + ".tmp");
        int dropped = 0;
        try (ZipFile in = new ZipFile(jar.toFile());
                ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            for (ZipEntry entry : in.stream().toList()) {
                if (prefixes.stream().anyMatch(entry.getName()::startsWith)) {
                    dropped++;
                    continue;
                }
                ZipEntry copy = new ZipEntry(entry.getName());
                copy.setTime(entry.getTime());
                zip.putNextEntry(copy);
                try (InputStream data = in.getInputStream(entry)) {
                    data.transferTo(zip);
                }
                zip.closeEntry();
            }
        }
        Files.move(out, jar, StandardCopyOption.REPLACE_EXISTING);
        System.err.println("image: " + jar.getFileName() + ": " + dropped + " entries left out");
    }
}
