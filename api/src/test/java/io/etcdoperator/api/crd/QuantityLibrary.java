package io.etcdoperator.api.crd;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * The part of Kubernetes' CEL quantity library that the CRD rules use; dev.cel ships none of the Kubernetes
 * libraries, so the declarations (for the checker) and the bindings (for the runtime) are provided here.
 */
final class QuantityLibrary {

    static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");

    private QuantityLibrary() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "quantity",
                        CelOverloadDecl.newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "string", CelOverloadDecl.newGlobalOverload("quantity_to_string", SimpleType.STRING, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "compareTo",
                        CelOverloadDecl.newMemberOverload("quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isGreaterThan",
                        CelOverloadDecl.newMemberOverload(
                                "quantity_is_greater_than", SimpleType.BOOL, QUANTITY, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isLessThan",
                        CelOverloadDecl.newMemberOverload(
                                "quantity_is_less_than", SimpleType.BOOL, QUANTITY, QUANTITY)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, CelQuantity::parse),
                CelFunctionBinding.from("quantity_to_string", CelQuantity.class, CelQuantity::text),
                CelFunctionBinding.from("quantity_compare_to", CelQuantity.class, CelQuantity.class, (a, b) ->
                        (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from(
                        "quantity_is_greater_than", CelQuantity.class, CelQuantity.class, (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from(
                        "quantity_is_less_than", CelQuantity.class, CelQuantity.class, (a, b) -> a.compareTo(b) < 0));
    }
}
