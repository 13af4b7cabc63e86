"""The integration contract: versions published by staff, acceptance by the integrator. A live
key needs production released and the current version accepted."""

from __future__ import annotations

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.permissions import exigir_reautenticacao
from graphql_api.core.principal import Principal
from graphql_api.integracao import repository
from graphql_api.integracao.models import AceiteContrato, ContratoVersao
from graphql_api.integrador.models import Integrador
from graphql_api.usuario import equipe
from vitrine.infra.paths import DOCS_DIR

FIRST_VERSION_FILE = DOCS_DIR / "contrato.md"


async def vigente() -> ContratoVersao:
    """The latest published version; a fresh installation starts with docs/contrato.md as v1."""
    current = await repository.latest_contrato()
    if current is None:
        current, _ = await ContratoVersao.get_or_create(
            versao=1,
            defaults={
                "titulo": "Contrato de integração",
                "texto": FIRST_VERSION_FILE.read_text(),
                "publicado_por": "sistema",
            },
        )
    return current


async def publicar(titulo: str, texto: str, *, por: str) -> ContratoVersao:
    if not titulo.strip() or not texto.strip():
        raise ApiError(
            "VALIDATION_FAILED", fields=[FieldError("texto", "obrigatorio", "Título e texto são obrigatórios.")]
        )
    latest = await vigente()
    return await ContratoVersao.create(versao=latest.versao + 1, titulo=titulo.strip(), texto=texto, publicado_por=por)


async def aceitar(integrador_id: str, versao: int, *, por: str) -> AceiteContrato:
    current = await vigente()
    if versao != current.versao:
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError("versao", "valor_invalido", f"A versão vigente é a {current.versao}.")],
        )
    aceite, _ = await AceiteContrato.get_or_create(
        integrador_id=integrador_id, versao=versao, defaults={"aceito_por": por[:100]}
    )
    return aceite


async def aceitar_no_portal(principal: Principal, versao: int) -> AceiteContrato:
    """An owner accepts in the portal, after typing the password again (it binds the company);
    the acceptance records the person's name and e-mail. Accepting again changes nothing."""
    exigir_reautenticacao(principal)
    # a portal session names its person and its integrator
    assert principal.ator_id is not None and principal.integrador_id is not None
    pessoa = await equipe.obter(principal, principal.ator_id)
    return await aceitar(principal.integrador_id, versao, por=f"{pessoa.nome} <{pessoa.email}>")


async def aceite_vigente(integrador_id: str) -> AceiteContrato | None:
    current = await vigente()
    return await AceiteContrato.get_or_none(integrador_id=integrador_id, versao=current.versao)


async def bloqueio_de_chave_live(integrador_id: str) -> ApiError | None:
    """What stops this integrator from creating sk_live_ keys (production released and the current
    contract accepted are both needed), or None when nothing does."""
    integrador = await Integrador.get(id=integrador_id)
    if integrador.producao_situacao == "suspensa":
        return ApiError("FORBIDDEN", description="O acesso de produção deste integrador está suspenso.")
    if integrador.producao_situacao != "liberada":
        return ApiError(
            "PRODUCTION_NOT_RELEASED",
            description="O acesso de produção ainda não foi liberado: conclua as 8 etapas de integração em "
            "teste e peça a liberação (POST /v1/integracao/pedido-producao).",
        )
    if await aceite_vigente(integrador_id) is None:
        current = await vigente()
        return ApiError(
            "CONTRACT_NOT_ACCEPTED", description=f"Aceite a versão {current.versao} do contrato de integração."
        )
    return None


async def exigir_condicoes_de_chave_live(integrador_id: str) -> None:
    if (bloqueio := await bloqueio_de_chave_live(integrador_id)) is not None:
        raise bloqueio
