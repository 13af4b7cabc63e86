"""Accounts (contas): sub-accounts the integrator creates, and accounts linked through OAuth."""

from __future__ import annotations

from tortoise.exceptions import IntegrityError
from tortoise.queryset import QuerySet

from graphql_api.conta import repository
from graphql_api.conta.models import Conta
from graphql_api.conta.schemas import FiltroContas, NovaConta
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Principal
from graphql_api.core.validation import validate


def _already_exists(conta: Conta) -> ApiError:
    return ApiError(
        "ACCOUNT_ALREADY_EXISTS",
        fields=[
            FieldError(
                "codigoExterno",
                "ja_existe",
                f"Já existe a conta {conta.id} com este codigoExterno.",
                id=conta.id,
            )
        ],
    )


async def criar_conta(principal: Principal, dados: dict) -> Conta:
    nova = validate(NovaConta, dados)
    existing = await repository.by_codigo_externo(principal, nova.codigoExterno)
    if existing is not None:
        raise _already_exists(existing)
    try:
        return await Conta.create(
            id=new_id("cta_"),
            integrador_id=principal.integrador_id,
            ambiente=principal.ambiente.value,
            codigo_externo=nova.codigoExterno,
            nome=nova.nome,
        )
    except IntegrityError:  # a concurrent creation won the race
        existing = await repository.by_codigo_externo(principal, nova.codigoExterno)
        if existing is None:
            raise
        raise _already_exists(existing) from None


async def obter_conta(principal: Principal, conta_id: str) -> Conta:
    return await encontrar(
        conta_id, "cta_", lambda: repository.get_visible(principal, conta_id), f"Conta {conta_id} não encontrada."
    )


async def obter_conta_com_conteudo(principal: Principal, conta_id: str) -> Conta:
    """The account whose products, checks and generations the caller is about to reach. A linked
    account is the seller's: only the OAuth token the seller authorised reaches its content
    (within the scopes granted); the integrator's key and portal see the account itself only."""
    conta = await obter_conta(principal, conta_id)
    if conta.origem == "vinculada" and principal.conta_id != conta.id:
        raise ApiError(
            "FORBIDDEN",
            description=f"A conta {conta.id} é vinculada a um vendedor: as fichas, conferências e gerações "
            "dela só são acessadas com o token OAuth que o vendedor autorizou, dentro dos escopos dados.",
        )
    return conta


async def listar_contas(
    principal: Principal,
    page: PageRequest,
    *,
    codigo_externo: str | None = None,
    origem: str | None = None,
    situacao: str | None = None,
) -> tuple[list[Conta], str | None]:
    filtros = validate(FiltroContas, {"codigoExterno": codigo_externo, "origem": origem, "situacao": situacao})
    return await paginate(consulta_contas(principal, filtros), page, escopo=repository.visible(principal))


def consulta_contas(principal: Principal, filtros: FiltroContas) -> QuerySet[Conta]:
    """GET /contas before its page: each filter has its index (tenant, column, id)."""
    query = repository.visible(principal)
    if filtros.codigoExterno is not None:
        query = query.filter(codigo_externo=filtros.codigoExterno)
    if filtros.origem is not None:
        query = query.filter(origem=filtros.origem)
    if filtros.situacao is not None:
        query = query.filter(situacao=filtros.situacao)
    return query
