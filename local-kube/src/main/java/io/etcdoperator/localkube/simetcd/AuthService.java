package io.etcdoperator.localkube.simetcd;

import io.etcd.jetcd.api.AuthEnableRequest;
import io.etcd.jetcd.api.AuthEnableResponse;
import io.etcd.jetcd.api.AuthGrpc;
import io.etcd.jetcd.api.AuthUserAddRequest;
import io.etcd.jetcd.api.AuthUserAddResponse;
import io.etcd.jetcd.api.AuthUserGrantRoleRequest;
import io.etcd.jetcd.api.AuthUserGrantRoleResponse;
import io.etcd.jetcd.api.AuthenticateRequest;
import io.etcd.jetcd.api.AuthenticateResponse;
import io.grpc.stub.StreamObserver;

/** The Auth calls of the operator's enableAuth and of an authenticated client; roles are not modelled. */
final class AuthService extends AuthGrpc.AuthImplBase {

    private final MemberContext member;

    AuthService(MemberContext member) {
        this.member = member;
    }

    @Override
    public void authenticate(AuthenticateRequest request, StreamObserver<AuthenticateResponse> observer) {
        member.answer(
                observer,
                () -> AuthenticateResponse.newBuilder()
                        .setHeader(member.header())
                        .setToken(member.cluster.authenticate(request.getName(), request.getPassword()))
                        .build());
    }

    @Override
    public void userAdd(AuthUserAddRequest request, StreamObserver<AuthUserAddResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.authorize(MemberContext.TOKEN.get());
            member.cluster.addUser(request.getName(), request.getPassword());
            return AuthUserAddResponse.newBuilder().setHeader(member.header()).build();
        });
    }

    @Override
    public void userGrantRole(AuthUserGrantRoleRequest request, StreamObserver<AuthUserGrantRoleResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.authorize(MemberContext.TOKEN.get());
            return AuthUserGrantRoleResponse.newBuilder()
                    .setHeader(member.header())
                    .build();
        });
    }

    @Override
    public void authEnable(AuthEnableRequest request, StreamObserver<AuthEnableResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.enableAuth();
            return AuthEnableResponse.newBuilder().setHeader(member.header()).build();
        });
    }
}
