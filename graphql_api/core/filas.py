"""The queues of background work as the database holds them: every piece of work is a row first
(a generation, a quality check, a notice delivery, an e-mail), and each domain's repository says
which of its rows wait for a worker and since when they have been due, the way its sweep finds
them (`fila` in each). Read by the service's metrics (vitrine/metrics.py), never on a request."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tortoise.queryset import QuerySet


@dataclass(frozen=True)
class Fila:
    itens: int  # rows waiting for a worker or being worked on
    devido_desde: datetime | None  # when the oldest of those that are due became due; None: none


async def mais_antigo(*consultas: tuple[QuerySet, str]) -> datetime | None:
    """The earliest value of each (query, column), over all of them: one indexed read each."""
    encontrados: list[datetime] = []
    for consulta, coluna in consultas:
        valor = (
            await consulta.filter(**{f"{coluna}__isnull": False})
            .order_by(coluna)
            .first()
            .values_list(coluna, flat=True)
        )
        if isinstance(valor, datetime):
            encontrados.append(valor)
    return min(encontrados, default=None)
