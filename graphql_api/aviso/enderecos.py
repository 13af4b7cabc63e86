"""Notice addresses (avisos): registration by url, listing, removal and their secrets, with the
keys that sign a delivery (the current one, and the previous one during its grace period)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from tortoise.exceptions import IntegrityError

from graphql_api.aviso import assinatura, repository
from graphql_api.aviso.models import Aviso
from graphql_api.aviso.schemas import NovoAviso, Rotacao
from graphql_api.core import alertas, relogio
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.permissions import exigir_reautenticacao
from graphql_api.core.principal import Principal
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import validate
from vitrine.infra.outbound import OutboundError

if TYPE_CHECKING:
    from graphql_api.core.recursos import Configuracao, Recursos

MAX_AVISOS = 20  # per integrator and environment


@dataclass(frozen=True, slots=True)
class Registro:
    aviso: Aviso
    criado: bool
    segredo: str | None  # shown once: on creation and on rotation


def _chave_mestra(settings: Configuracao) -> bytes:
    return settings.signing_key


async def registrar_aviso(principal: Principal, dados: Any, *, runtime: Recursos) -> Registro:
    """Create or update (by url) a notice address. Re-registering a switched-off url turns it on."""
    novo = validate(NovoAviso, dados)
    try:
        await runtime.outbound.check_destination(novo.url)
    except OutboundError as exc:
        code = "endereco_proibido" if exc.code == "endereco_proibido" else "formato_invalido"
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("url", code, exc.detail)]) from None
    for attempt in range(2):
        try:
            async with transaction():
                return await _store_aviso(principal, novo, runtime)
        except IntegrityError:
            if attempt:  # a concurrent first registration of this url won; retry as an update
                raise
    raise AssertionError("unreachable")


async def _store_aviso(principal: Principal, novo: NovoAviso, runtime: Recursos) -> Registro:
    aviso = await repository.by_url(principal, novo.url)
    if aviso is not None:
        aviso.eventos = novo.eventos
        if aviso.situacao != "ativo":
            aviso.situacao = "ativo"
            aviso.desativado_em = aviso.motivo_desativacao = None
            aviso.falhando_desde = aviso.alerta_falha_em = None
            await alertas.fechar(aviso.integrador_id, aviso.ambiente, ("aviso_falhando", "aviso_desativado"), aviso.id)
        await aviso.save()
        return Registro(aviso, criado=False, segredo=None)
    if await repository.count(principal) >= MAX_AVISOS:
        raise ApiError("NOTICE_ADDRESS_LIMIT_REACHED")
    segredo, chave = assinatura.novo_segredo()
    aviso = await Aviso.create(
        id=new_id("avs_"),
        integrador_id=principal.integrador_id,
        ambiente=principal.ambiente.value,
        url=novo.url,
        eventos=novo.eventos,
        segredo_cifrado=assinatura.cifrar(chave, _chave_mestra(runtime.settings)),
    )
    return Registro(aviso, criado=True, segredo=segredo)


async def obter_aviso(principal: Principal, aviso_id: str) -> Aviso:
    return await encontrar(
        aviso_id,
        "avs_",
        lambda: repository.get_visible(principal, aviso_id),
        f"Endereço de avisos {aviso_id} não encontrado.",
    )


async def listar_avisos(principal: Principal, page: PageRequest) -> tuple[list[Aviso], str | None]:
    return await paginate(repository.visible(principal), page)


async def remover_aviso(principal: Principal, aviso_id: str) -> None:
    """Remove an address with its deliveries; a delivery in flight finds nothing to record."""
    aviso = await obter_aviso(principal, aviso_id)
    await aviso.delete()


async def rotacionar_segredo(principal: Principal, aviso_id: str, dados: Any, *, runtime: Recursos) -> Registro:
    """A new secret, shown once. During the grace period deliveries carry both signatures.
    In the portal it reveals a secret: the person types the password again first."""
    exigir_reautenticacao(principal)
    pedido = validate(Rotacao, dados or {})
    async with transaction():
        aviso = await obter_aviso(principal, aviso_id)
        segredo, chave = assinatura.novo_segredo()
        if pedido.carenciaHoras:
            aviso.segredo_anterior_cifrado = aviso.segredo_cifrado
            aviso.segredo_anterior_expira_em = relogio.agora() + timedelta(hours=pedido.carenciaHoras)
        else:
            aviso.segredo_anterior_cifrado = aviso.segredo_anterior_expira_em = None
        aviso.segredo_cifrado = assinatura.cifrar(chave, _chave_mestra(runtime.settings))
        await aviso.save()
    return Registro(aviso, criado=False, segredo=segredo)


def chaves(aviso: Aviso, settings: Configuracao, agora: datetime) -> list[bytes]:
    """The keys that sign now: the current one, and the previous one during its grace period."""
    mestra = _chave_mestra(settings)
    chaves = [assinatura.decifrar(aviso.segredo_cifrado, mestra)]
    if aviso.segredo_anterior_cifrado and aviso.segredo_anterior_expira_em and aviso.segredo_anterior_expira_em > agora:
        chaves.append(assinatura.decifrar(aviso.segredo_anterior_cifrado, mestra))
    return chaves
