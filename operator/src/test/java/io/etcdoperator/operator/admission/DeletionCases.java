package io.etcdoperator.operator.admission;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** admission/deletion-cases.yaml: the cases the webhook here and the chart's policy (charts module) must agree on. */
record DeletionCases(String operatorUser, List<Case> cases) {

    record Case(String name, boolean allowed, String message, Map<String, Object> request) {
        AdmissionRequest admissionRequest() {
            return JSON.convertValue(request, AdmissionRequest.class);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final KubernetesSerialization JSON = new KubernetesSerialization();

    static DeletionCases load() {
        try (InputStream in = DeletionCases.class.getResourceAsStream("/admission/deletion-cases.yaml")) {
            return JSON.unmarshal(in, DeletionCases.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
