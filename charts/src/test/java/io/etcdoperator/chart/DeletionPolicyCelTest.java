package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Validation;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Variable;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart's ValidatingAdmissionPolicy, evaluated with dev.cel as the API server would (variables in order, then
 * each validation and its messageExpression) against the cases the operator's webhook is tested with, so the two
 * mechanisms cannot drift apart. CEL extension libraries are left out: the policy needs none.
 */
class DeletionPolicyCelTest {

    static final Path CASES = ChartTest.ROOT.resolve("operator/src/test/resources/admission/deletion-cases.yaml");
    static final ValidatingAdmissionPolicy POLICY = ChartTest.find(
            ChartTest.render(Map.of("deletionProtection.policy", true)), ValidatingAdmissionPolicy.class);

    static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("request", SimpleType.DYN)
            .addVar("object", SimpleType.DYN)
            .addVar("oldObject", SimpleType.DYN)
            .addVar("variables", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .build();
    static final CelRuntime RUNTIME =
            CelRuntimeFactory.standardCelRuntimeBuilder().build();

    record Case(String name, boolean allowed, String message, Map<String, Object> request) {
        @Override
        public String toString() {
            return name;
        }
    }

    @SuppressWarnings("unchecked")
    static Stream<Case> cases() throws IOException {
        Map<String, Object> file = Serialization.unmarshal(Files.readString(CASES), Map.class);
        assertThat(file.get("operatorUser"))
                .as("the cases assume the chart's default release")
                .isEqualTo("system:serviceaccount:" + ChartTest.NAMESPACE + ":etcd-operator");
        return ((List<Map<String, Object>>) file.get("cases"))
                .stream()
                        .map(c -> new Case(
                                (String) c.get("name"), (Boolean) c.get("allowed"), (String) c.get("message"), (Map<
                                                String, Object>)
                                        c.get("request")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersEachSharedCase(Case c) throws Exception {
        assertThat(matches(c.request()))
                .as("the policy's matchConstraints select the request")
                .isTrue();
        Map<String, Object> input = new HashMap<>();
        input.put("request", c.request());
        input.put("oldObject", c.request().get("oldObject"));
        Map<String, Object> variables = new LinkedHashMap<>();
        input.put("variables", variables);
        for (Variable variable : POLICY.getSpec().getVariables()) {
            variables.put(variable.getName(), eval(variable.getExpression(), input));
        }
        List<Validation> validations = POLICY.getSpec().getValidations();
        List<Validation> failed = validations.stream()
                .filter(v -> !Boolean.TRUE.equals(evalUnchecked(v.getExpression(), input)))
                .toList();
        assertThat(failed.isEmpty()).as("allowed").isEqualTo(c.allowed());
        if (!c.allowed()) {
            assertThat(eval(failed.getFirst().getMessageExpression(), input)).isEqualTo(c.message());
            assertThat(failed.getFirst().getReason()).isEqualTo("Forbidden");
        }
    }

    @Test
    void rendersOnlyWhenAskedOrServed() {
        assertThat(ChartTest.all(ChartTest.render(Map.of()), ValidatingAdmissionPolicy.class))
                .as("helm template's default capabilities have no ValidatingAdmissionPolicy kind")
                .isEmpty();
        assertThat(ChartTest.all(
                        ChartTest.render(Map.of("deletionProtection.policy", false)), ValidatingAdmissionPolicy.class))
                .isEmpty();
        var objects = ChartTest.render(Map.of("deletionProtection.policy", "true"));
        var binding = ChartTest.find(objects, ValidatingAdmissionPolicyBinding.class);
        assertThat(binding.getSpec().getPolicyName())
                .isEqualTo(ChartTest.find(objects, ValidatingAdmissionPolicy.class)
                        .getMetadata()
                        .getName());
        assertThat(binding.getSpec().getValidationActions()).containsExactly("Deny");
        assertThat(binding.getSpec().getMatchResources().getNamespaceSelector().getMatchExpressions())
                .isEmpty();
    }

    @Test
    void watchNamespacesLimitTheBinding() {
        var binding = ChartTest.find(
                ChartTest.render(Map.of("deletionProtection.policy", true, "watchNamespaces[0]", "team-a")),
                ValidatingAdmissionPolicyBinding.class);
        var selector = binding.getSpec()
                .getMatchResources()
                .getNamespaceSelector()
                .getMatchExpressions()
                .getFirst();
        assertThat(selector.getKey()).isEqualTo("kubernetes.io/metadata.name");
        assertThat(selector.getValues()).containsExactly("team-a");
    }

    @SuppressWarnings("unchecked")
    static boolean matches(Map<String, Object> request) {
        Map<String, Object> resource = (Map<String, Object>) request.get("resource");
        return POLICY.getSpec().getMatchConstraints().getResourceRules().stream()
                .anyMatch(rule -> rule.getOperations().contains(request.get("operation"))
                        && rule.getApiGroups().contains(resource.get("group"))
                        && rule.getResources().contains(resource.get("resource")));
    }

    static Object eval(String expression, Map<String, Object> input) throws Exception {
        return RUNTIME.createProgram(COMPILER.compile(expression).getAst()).eval(input);
    }

    static Object evalUnchecked(String expression, Map<String, Object> input) {
        try {
            return eval(expression, input);
        } catch (Exception e) {
            throw new AssertionError("'" + expression + "' failed: " + e.getMessage(), e);
        }
    }
}
