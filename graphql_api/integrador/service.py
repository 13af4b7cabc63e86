"""Integrators: creation (CLI, portal sign-up, staff) and their per-minute limits."""

from __future__ import annotations

from dataclasses import dataclass

from graphql_api.chave import service as chaves
from graphql_api.core import topicos
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.principal import Ambiente
from graphql_api.core.transactions import transaction
from graphql_api.creditos import service as creditos
from graphql_api.integrador import repository
from graphql_api.integrador.models import Integrador


@dataclass(frozen=True, slots=True)
class IntegradorCriado:
    integrador: Integrador
    chave_teste: str | None  # the full sk_test_ key, shown once


async def criar_integrador(*, nome: str, email: str, chave_teste: bool = True) -> IntegradorCriado:
    """A new integrator with its two wallets and, for scripts, a first test key (the portal
    sign-up skips it: people create their keys on the keys page, where they are shown once)."""
    nome, email = nome.strip(), email.strip()
    problems = []
    if not 1 <= len(nome) <= 200:
        problems.append(FieldError("nome", "muito_longo" if nome else "obrigatorio", "De 1 a 200 caracteres."))
    if "@" not in email or len(email) > 254:
        problems.append(FieldError("email", "formato_invalido", "Informe um e-mail válido."))
    if problems:
        raise ApiError("VALIDATION_FAILED", fields=problems)
    async with transaction():
        integrador = await Integrador.create(id=new_id("itg_"), nome=nome, email=email)
        await creditos.abrir_carteiras(integrador.id)
        token = None
        if chave_teste:
            _, token = await chaves.criar_chave(integrador.id, Ambiente.TESTE, nome="Primeira chave")
    return IntegradorCriado(integrador, token)


async def obter(integrador_id: str) -> Integrador:
    return await encontrar(
        integrador_id, "itg_", lambda: repository.get(integrador_id), f"Integrador {integrador_id} não existe."
    )


async def definir_situacao(integrador_id: str, situacao: str, *, bus) -> Integrador:
    """Pause (`pausado`) or resume (`ativo`) an integrator; its keys feel it at once."""
    if situacao not in ("ativo", "pausado"):
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("situacao", "valor_invalido", "Use ativo ou pausado.")])
    integrador = await obter(integrador_id)
    integrador.situacao = situacao
    await integrador.save(update_fields=["situacao", "atualizado_em"])
    await bus.publish(topicos.CHAVES)
    return integrador


async def definir_limites(integrador_id: str, *, por_chave: int | None, por_integrador: int | None, bus) -> Integrador:
    """Per-minute limits of an integrator (null = the default of the settings)."""
    integrador = await obter(integrador_id)
    integrador.limite_por_minuto_chave = por_chave
    integrador.limite_por_minuto_integrador = por_integrador
    await integrador.save(update_fields=["limite_por_minuto_chave", "limite_por_minuto_integrador", "atualizado_em"])
    await bus.publish(topicos.CHAVES)
    return integrador
