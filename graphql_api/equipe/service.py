"""Staff: tokens for the internal GraphQL API (/graphql) and the actions only staff may take,
each recorded with who took it, when and why."""

from __future__ import annotations

import hashlib
import hmac
import re

from graphql_api.core import topicos
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import random_token
from graphql_api.core.principal import Ambiente, CredentialKind, Principal
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import exigir_aceito, validate
from graphql_api.creditos import catalogo, planos
from graphql_api.creditos import service as creditos
from graphql_api.creditos.schemas import AjusteCreditos
from graphql_api.equipe import repository
from graphql_api.equipe.models import AcaoEquipe, MembroEquipe
from graphql_api.integracao import contrato
from graphql_api.integrador import service as integradores
from graphql_api.integrador.models import Integrador

TOKEN_PATTERN = re.compile(r"^stf_([A-Za-z0-9]{12})_([A-Za-z0-9]{40})$")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def criar_membro(nome: str) -> tuple[MembroEquipe, str]:
    if not nome.strip():
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("nome", "obrigatorio", "Informe o nome.")])
    identificador, secret = random_token(12), random_token(40)
    membro = await MembroEquipe.create(id=identificador, nome=nome.strip()[:100], hash_segredo=_hash(secret))
    return membro, f"stf_{identificador}_{secret}"


async def autenticar(token: str) -> Principal:
    match = TOKEN_PATTERN.match(token)
    membro = await MembroEquipe.get_or_none(id=match.group(1)) if match else None
    if (
        match is None
        or membro is None
        or membro.revogado_em is not None
        or not hmac.compare_digest(membro.hash_segredo, _hash(match.group(2)))
    ):
        raise ApiError("UNAUTHORIZED", description="Credencial de equipe inexistente, incorreta ou revogada.")
    return Principal(kind=CredentialKind.STAFF, ambiente=Ambiente.TESTE, scopes=frozenset(), ator_id=membro.id)


async def _registrar(principal: Principal, acao: str, alvo: str | None, motivo: str | None) -> None:
    await AcaoEquipe.create(membro_id=principal.ator_id, acao=acao, alvo=alvo, motivo=motivo)


def _exigir_motivo(motivo: str) -> str:
    if not motivo.strip():
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError("motivo", "obrigatorio", "Diga o motivo: ele é registrado e mostrado ao integrador.")],
        )
    return motivo.strip()


async def pausar_integrador(principal: Principal, integrador_id: str, motivo: str, *, bus) -> Integrador:
    integrador = await integradores.definir_situacao(integrador_id, "pausado", bus=bus)
    await _registrar(principal, "pausar_integrador", integrador_id, _exigir_motivo(motivo))
    return integrador


async def retomar_integrador(principal: Principal, integrador_id: str, *, bus) -> Integrador:
    integrador = await integradores.definir_situacao(integrador_id, "ativo", bus=bus)
    await _registrar(principal, "retomar_integrador", integrador_id, None)
    return integrador


async def suspender_producao(principal: Principal, integrador_id: str, motivo: str, *, bus) -> Integrador:
    integrador = await integradores.obter(integrador_id)
    integrador.producao_situacao = "suspensa"
    integrador.producao_motivo = _exigir_motivo(motivo)
    await integrador.save()
    await bus.publish(topicos.CHAVES)
    await _registrar(principal, "suspender_producao", integrador_id, motivo)
    return integrador


async def restaurar_producao(principal: Principal, integrador_id: str, *, bus) -> Integrador:
    """Back to what the steps earned: liberada if it had been released, bloqueada otherwise."""
    integrador = await integradores.obter(integrador_id)
    integrador.producao_situacao = "liberada" if integrador.producao_liberada_em else "bloqueada"
    integrador.producao_motivo = None
    await integrador.save()
    await bus.publish(topicos.CHAVES)
    await _registrar(principal, "restaurar_producao", integrador_id, None)
    return integrador


async def publicar_contrato(principal: Principal, titulo: str, texto: str):
    assert principal.ator_id is not None  # a staff principal names its member
    versao = await contrato.publicar(titulo, texto, por=principal.ator_id)
    await _registrar(principal, "publicar_contrato", str(versao.versao), titulo)
    return versao


async def acoes(limite: int = 50) -> list[AcaoEquipe]:
    return await repository.latest_acoes(limite)


# -- plans and credits ----------------------------------------------------------------------------


async def mudar_plano_integrador(
    principal: Principal, integrador_id: str, ambiente: str, codigo: str, motivo: str | None, *, bus
):
    """Staff move an integrator's subscription (an upgrade at once, a downgrade next cycle)."""
    exigir_aceito("ambiente", ambiente, ("teste", "producao"))
    integrador = await integradores.obter(integrador_id)
    atual = await planos.mudar_plano(integrador.id, ambiente, codigo, bus=bus)
    await _registrar(
        principal, "mudar_plano", integrador.id, f"{ambiente}: {codigo}" + (f" ({motivo})" if motivo else "")
    )
    return atual


async def cancelar_mudanca_plano(principal: Principal, integrador_id: str, ambiente: str):
    exigir_aceito("ambiente", ambiente, ("teste", "producao"))
    integrador = await integradores.obter(integrador_id)
    atual = await planos.cancelar_mudanca(integrador.id, ambiente)
    await _registrar(principal, "cancelar_mudanca_plano", integrador.id, ambiente)
    return atual


async def publicar_versao_plano(principal: Principal, dados: dict):
    plano = await catalogo.publicar_versao(dados)
    await _registrar(principal, "publicar_plano", plano.id, f"{plano.codigo} versão {plano.versao}")
    return plano


async def ajustar_creditos(principal: Principal, dados: dict):
    """A credit adjustment with its reason (shown in the integrator's statement and recorded)."""
    ajuste = validate(AjusteCreditos, dados)
    integrador = await integradores.obter(ajuste.integradorId)
    async with transaction():
        carteira = await creditos.ajustar(
            integrador.id, ajuste.ambiente, ajuste.creditos, ajuste.motivo, bolso=ajuste.bolso
        )
        await _registrar(
            principal,
            "ajustar_creditos",
            integrador.id,
            f"{ajuste.ambiente} {ajuste.bolso} {ajuste.creditos:+d}: {ajuste.motivo}",
        )
    return carteira
