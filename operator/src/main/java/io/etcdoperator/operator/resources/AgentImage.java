package io.etcdoperator.operator.resources;

/**
 * The operator image as the snapshot agent: Jobs and init containers run it with {@code agent snapshot ...} as args
 * (no command, so the image's entrypoint, the operator binary, stays). {@code toolsDir} holds
 * {@code v<major.minor>/etcdctl|etcdutl} inside that image; the restore picks the tool matching the target version.
 */
public record AgentImage(String image, String toolsDir) {

    /** Where the released operator image ships etcd's restore tools. */
    public static final String DEFAULT_TOOLS_DIR = "/opt/etcd-tools";

    public AgentImage {
        if (image == null || image.isBlank()) {
            throw new IllegalArgumentException("the agent needs an image (--operator-image)");
        }
        if (toolsDir == null || toolsDir.isBlank()) {
            toolsDir = DEFAULT_TOOLS_DIR;
        }
    }
}
