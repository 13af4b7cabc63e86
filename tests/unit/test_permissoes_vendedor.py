"""Sellers and integrators never share a field of the internal API: a seller's session (no scopes,
no integrator) is FORBIDDEN on every integrator field, even those guarded by `requires()` alone,
and the seller's own fields (`vendedor_only()`) refuse every integrator credential."""

from types import SimpleNamespace

import pytest
from strawberry.permission import PermissionExtension

from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from graphql_api.core.principal import (
    ALL_SCOPES,
    OAUTH_SCOPES,
    ROLE_SCOPES,
    Ambiente,
    CredentialKind,
    Papel,
    Principal,
)
from graphql_api.executor import Operation, run
from graphql_api.schema import Mutation, Query

VENDEDOR = Principal(CredentialKind.VENDEDOR, Ambiente.TESTE, frozenset(), ator_id="vnd_01jabcdefghjkmnpqrstvwxyz0")
INTEGRADOR = "itg_01jabcdefghjkmnpqrstvwxyz0"
INTEGRATOR_SIDE = {
    "API key": Principal(
        CredentialKind.API_KEY, Ambiente.TESTE, ALL_SCOPES, integrador_id=INTEGRADOR, chave_id="c" * 12
    ),
    "OAuth token": Principal(
        CredentialKind.OAUTH,
        Ambiente.TESTE,
        OAUTH_SCOPES,
        integrador_id=INTEGRADOR,
        conta_id="cta_x",
        client_id="app_x",
    ),
    "portal owner": Principal(
        CredentialKind.PORTAL,
        Ambiente.TESTE,
        ROLE_SCOPES[Papel.DONO],
        integrador_id=INTEGRADOR,
        ator_id="usr_x",
        reautenticado=True,
    ),
    "staff": Principal(CredentialKind.STAFF, Ambiente.TESTE, frozenset(), ator_id="eqp_x"),
}
# Fields anyone may call: no session exists yet (sign-up, password links, the consent page's
# first check of an authorisation request).
PUBLIC = {
    "link_senha",
    "cadastrar_integrador",
    "pedir_redefinicao_senha",
    "definir_senha",
    "cadastrar_vendedor",
    "pedido_autorizacao",
}


def context(principal: Principal | None) -> Context:
    # Permissions are checked before any resolver runs: a refused field never reaches the runtime.
    return Context(runtime=None, principal=principal)  # type: ignore[arg-type]


async def refused(document: str, principal: Principal | None, variables: dict | None = None) -> ApiError:
    with pytest.raises(ApiError) as error:
        await run(Operation(document), context(principal), variables or {})
    return error.value


def allows(field, principal: Principal) -> bool:
    """Whether every permission of a schema field lets `principal` through."""
    info = SimpleNamespace(context=context(principal))
    checks = [p for e in field.extensions if isinstance(e, PermissionExtension) for p in e.permissions]
    try:
        return all(check.has_permission(None, info) for check in checks)
    except ApiError:
        return False


async def test_a_seller_is_forbidden_on_integrator_fields():
    for document in (
        "query { saldo { creditosDisponiveis } }",  # creditos:ler, integrator only
        "query { contas { itens { id } } }",  # contas:ler
        "query { precos { tipo } }",  # requires() alone: scopes would not have stopped a seller
        "query { errosRecentes { tipo } }",  # requires() alone
        "query { chamadas { itens { requestId } } }",  # portal_scope, which other credentials pass
        "query { eu { id } }",  # portal only
        "query { contratoVigente { versao } }",  # integrator or staff
        'query { integrador(id: "itg_x") { id } }',  # staff only
        "mutation { recarregarTeste { creditosDisponiveis } }",
    ):
        error = await refused(document, VENDEDOR)
        assert (error.type, error.status) == ("FORBIDDEN", 403), document
    error = await refused("query { precos { tipo } }", VENDEDOR)
    assert error.description == "Uma sessão de vendedor não tem acesso a esta operação, que é do integrador."


async def test_integrator_credentials_are_forbidden_on_the_sellers_fields():
    for nome, principal in INTEGRATOR_SIDE.items():
        error = await refused("query { vendedorAtual { id nome email } }", principal)
        assert (error.type, error.status) == ("FORBIDDEN", 403), nome
        assert error.description == "Operação disponível apenas para vendedores com sessão aberta."
    assert (await refused("query { vendedorAtual { id } }", None)).type == "UNAUTHORIZED"


def test_no_field_is_open_to_both_a_seller_and_an_integrator():
    """The rule for every field, present and future: a guarded field a seller passes refuses every
    integrator credential, and every other guarded field refuses the seller."""
    fields = [f for t in (Query, Mutation) for f in t.__strawberry_definition__.fields]
    assert {f.python_name for f in fields if not f.extensions} == PUBLIC
    seen_seller_fields = set()
    for field in fields:
        if field.python_name in PUBLIC:
            continue
        if allows(field, VENDEDOR):
            seen_seller_fields.add(field.python_name)
            assert not any(allows(field, p) for p in INTEGRATOR_SIDE.values()), field.python_name
    assert {"vendedor_atual", "apps_conectados", "autorizar_app", "revogar_app_conectado"} <= seen_seller_fields
    # and the integrator's side still passes its own checks (the test sees real permissions)
    saldo = next(f for f in fields if f.python_name == "saldo")
    assert allows(saldo, INTEGRATOR_SIDE["API key"]) and not allows(saldo, INTEGRATOR_SIDE["OAuth token"])
