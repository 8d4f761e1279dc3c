package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.RestoreTool;
import io.etcdoperator.snapshot.SnapshotFailure;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Which etcdctl/etcdutl to run: by the cluster's etcd version below the tools directory, or by path. */
final class ToolOptions {

    /** Where the operator image keeps etcd's restore tools: v3.4/etcdctl, v3.5/etcdutl, ... */
    static final String DEFAULT_TOOLS_DIR = "/opt/etcd-tools";

    @Option(names = "--etcd-version", description = "Target etcd version; picks etcdctl (3.4) or etcdutl (3.5+).")
    String etcdVersion;

    @Option(names = "--etcd-tools-dir", defaultValue = DEFAULT_TOOLS_DIR, description = "Holds v<major.minor>/<tool>.")
    Path toolsDir;

    @Option(names = "--tool", description = "Path of etcdctl or etcdutl; overrides --etcd-version.")
    Path toolPath;

    boolean given() {
        return toolPath != null || etcdVersion != null;
    }

    RestoreTool tool() {
        if (toolPath != null) {
            return RestoreTool.at(toolPath);
        }
        if (etcdVersion == null) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "set --etcd-version or --tool");
        }
        return RestoreTool.forVersion(etcdVersion, toolsDir);
    }
}
