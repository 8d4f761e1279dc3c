package io.etcdoperator.localkube.node;

import java.util.Optional;

/**
 * What a node got for a container's image: the image and the id it reports in {@code status.containerStatuses[].
 * imageID} (the repository and manifest digest for a pulled image), or why there is none.
 */
public record ImagePull(Optional<ImageCatalogue.Image> image, String imageID, String failure) {

    static ImagePull found(ImageCatalogue.Image image, String imageID) {
        return new ImagePull(Optional.of(image), imageID, null);
    }

    static ImagePull failed(String failure) {
        return new ImagePull(Optional.empty(), "", failure);
    }
}
