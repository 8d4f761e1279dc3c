package io.etcdoperator.operator.admission;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.etcdoperator.pki.CertifiedKey;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** The operator's HTTPS endpoint for admission webhooks, presenting a serving certificate held only in memory. */
public final class WebhookServer implements AutoCloseable {

    private final HttpsServer server;

    public WebhookServer(InetSocketAddress address, CertifiedKey serving, X509Certificate ca, DeletionReviews reviews)
            throws IOException {
        server = HttpsServer.create(address, 0);
        server.setHttpsConfigurator(new HttpsConfigurator(sslContext(serving, ca)));
        server.createContext(DeletionReviews.PATH, reviews);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** A server context presenting {@code serving} with its CA. */
    public static SSLContext sslContext(CertifiedKey serving, X509Certificate ca) throws IOException {
        try {
            char[] password = new char[0];
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("serving", serving.privateKey(), password, new Certificate[] {serving.certificate(), ca});
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot build the webhook's TLS context", e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
