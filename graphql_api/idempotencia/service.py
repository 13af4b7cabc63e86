"""Idempotency records, kept by the internal API whichever door takes the Idempotency-Key: reserve
a key for a request (`reservar`), conclude it with the response (`concluir`), or release it
(`liberar`); `expurgar` deletes the expired.

Keys live 7 days per integrator and environment (an OAuth token's, per app and linked account
within them: `chave_do_chamador`). A reservation left in progress by a process that died is taken
over after PRAZO_DA_RESERVA, so a key is never stuck."""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from tortoise.exceptions import IntegrityError

from graphql_api.core.principal import CredentialKind, Principal
from graphql_api.core.purge import Purge
from graphql_api.core.relogio import agora
from graphql_api.idempotencia.models import RegistroIdempotencia

KEY_LIFETIME = timedelta(days=7)
PRAZO_DA_RESERVA = timedelta(seconds=60)


def chave_do_chamador(principal: Principal, chave: str) -> str:
    """The Idempotency-Key as kept (records, and the generations it created). The integrator's own
    keys share one namespace per integrator and environment, as the contract says; an OAuth
    token's live in one of its app and linked account, so two apps, or two sellers of one app,
    never collide on a key (409) nor replay each other's answers (another account's data)."""
    if principal.kind is not CredentialKind.OAUTH:
        return chave
    digest = hashlib.sha256(f"{principal.client_id}\n{principal.conta_id}\n{chave}".encode()).hexdigest()
    return f"oauth:{digest}"  # 70 characters: fits where a key of up to 120 does


class Desfecho(enum.Enum):
    RESERVADA = "reservada"  # new key (or a stale reservation taken over): run the request
    REPETIR = "repetir"  # concluded before with the same request: answer the stored response
    OUTRO_PEDIDO = "outro_pedido"  # used before with another request
    EM_ANDAMENTO = "em_andamento"  # the first request is still running


@dataclass(frozen=True, slots=True)
class Reserva:
    desfecho: Desfecho
    registro: RegistroIdempotencia | None


async def reservar(integrador_id: str, ambiente: str, chave: str, fingerprint: str) -> Reserva:
    for _ in range(3):
        now = agora()
        try:
            record = await RegistroIdempotencia.create(
                integrador_id=integrador_id,
                ambiente=ambiente,
                chave=chave,
                hash_pedido=fingerprint,
                criado_em=now,
                bloqueado_ate=now + PRAZO_DA_RESERVA,
            )
            return Reserva(Desfecho.RESERVADA, record)
        except IntegrityError:
            pass
        existing = await RegistroIdempotencia.get_or_none(integrador_id=integrador_id, ambiente=ambiente, chave=chave)
        if existing is None:
            continue  # released meanwhile: try to reserve again
        record = existing
        if record.criado_em < now - KEY_LIFETIME:
            await RegistroIdempotencia.filter(id=record.id).delete()
            continue
        if record.hash_pedido != fingerprint:
            return Reserva(Desfecho.OUTRO_PEDIDO, record)
        if record.situacao == "concluida":
            return Reserva(Desfecho.REPETIR, record)
        if record.bloqueado_ate < now:
            taken = await RegistroIdempotencia.filter(
                id=record.id, situacao="em_andamento", bloqueado_ate=record.bloqueado_ate
            ).update(bloqueado_ate=now + PRAZO_DA_RESERVA)
            if taken:
                return Reserva(Desfecho.RESERVADA, record)
        return Reserva(Desfecho.EM_ANDAMENTO, record)
    return Reserva(Desfecho.EM_ANDAMENTO, None)


async def concluir(record: RegistroIdempotencia, status: int, headers: dict[str, str], body: str) -> None:
    await RegistroIdempotencia.filter(id=record.id).update(
        situacao="concluida", status=status, cabecalhos=headers, corpo=body
    )


async def liberar(record: RegistroIdempotencia) -> None:
    await RegistroIdempotencia.filter(id=record.id, situacao="em_andamento").delete()


async def expurgar(now: datetime | None = None, purge: Purge | None = None) -> int:
    """Records older than 7 days, in bounded batches. By id: ids grow with criado_em, which has no
    index of its own."""
    expired = RegistroIdempotencia.filter(criado_em__lt=(now or agora()) - KEY_LIFETIME)
    return await (purge or Purge()).delete(expired, "id")


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's idempotency records (graphql_api/core/dados_de_teste.py)."""
    return {"idempotencia": await RegistroIdempotencia.filter(integrador_id=integrador_id, ambiente="teste").delete()}
