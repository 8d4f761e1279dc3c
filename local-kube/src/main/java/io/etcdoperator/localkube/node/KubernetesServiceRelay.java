package io.etcdoperator.localkube.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * What kube-proxy does for the {@code kubernetes} Service: Pods dial 10.96.0.1:443 (the Service IP, which the API
 * server's certificate names), a DNAT rule in the Pod's network namespace sends that to this relay on the bridge
 * address, and the relay forwards the bytes (TLS untouched) to the API server on loopback.
 */
final class KubernetesServiceRelay implements AutoCloseable {

    static final String SERVICE_IP = "10.96.0.1";
    static final int SERVICE_PORT = 443;

    private final ServerSocket server;
    private final InetSocketAddress apiServer;
    private final Thread acceptor;

    private KubernetesServiceRelay(ServerSocket server, InetSocketAddress apiServer) {
        this.server = server;
        this.apiServer = apiServer;
        this.acceptor = Thread.ofVirtual().name("kubernetes-service-relay").start(this::accept);
    }

    static KubernetesServiceRelay start(String bindAddress, URI apiServer) {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName(bindAddress));
            return new KubernetesServiceRelay(server, new InetSocketAddress(apiServer.getHost(), apiServer.getPort()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + bindAddress + " for the kubernetes Service", e);
        }
    }

    /** The iptables rule, run inside a Pod's network namespace, that sends the Service address to this relay. */
    List<String> dnatRule() {
        return List.of(
                "iptables",
                "-t",
                "nat",
                "-A",
                "OUTPUT",
                "-p",
                "tcp",
                "-d",
                SERVICE_IP,
                "--dport",
                Integer.toString(SERVICE_PORT),
                "-j",
                "DNAT",
                "--to-destination",
                server.getInetAddress().getHostAddress() + ":" + server.getLocalPort());
    }

    /** The variables a kubelet gives every container for the kubernetes Service. */
    static Map<String, String> environment() {
        String port = Integer.toString(SERVICE_PORT);
        String url = "tcp://" + SERVICE_IP + ":" + port;
        return Map.of(
                "KUBERNETES_SERVICE_HOST",
                SERVICE_IP,
                "KUBERNETES_SERVICE_PORT",
                port,
                "KUBERNETES_SERVICE_PORT_HTTPS",
                port,
                "KUBERNETES_PORT",
                url,
                "KUBERNETES_PORT_443_TCP",
                url,
                "KUBERNETES_PORT_443_TCP_PROTO",
                "tcp",
                "KUBERNETES_PORT_443_TCP_PORT",
                port,
                "KUBERNETES_PORT_443_TCP_ADDR",
                SERVICE_IP);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> relay(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void relay(Socket client) {
        try (client;
                Socket upstream = new Socket(apiServer.getAddress(), apiServer.getPort())) {
            Thread back = Thread.ofVirtual().start(() -> copy(upstream, client));
            copy(client, upstream);
            back.join();
        } catch (IOException | InterruptedException e) {
            // the connection ends either way; the client sees it closed
        }
    }

    private static void copy(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
            to.shutdownOutput();
        } catch (IOException e) {
            // one side closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        acceptor.interrupt();
    }
}
