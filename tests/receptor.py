"""A notice receiver, as an integrator would write it: it verifies each delivery with the
off-the-shelf `standardwebhooks` package and records what arrived. Used by the tests (behind a
real HTTPS server) and by bench/avisos.py."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from standardwebhooks import Webhook, WebhookVerificationError


@dataclass
class Recebido:
    cabecalhos: dict[str, str]
    corpo: bytes
    valido: bool | None  # None before a secret is known
    chegou: float = field(default_factory=time.time)

    @property
    def webhook_id(self) -> str:
        return self.cabecalhos["webhook-id"]

    @property
    def evento(self) -> dict[str, Any]:
        return json.loads(self.corpo)


class Receptor:
    """Answers 204 to a valid delivery and 401 to an invalid one, unless told otherwise: each
    item of `respostas` (status, headers) answers one request, in order; `espera` holds a
    request for that many seconds first."""

    def __init__(self, segredo: str | None = None) -> None:
        self.segredos: list[str] = [segredo] if segredo else []
        self.recebidos: list[Recebido] = []
        self.respostas: list[tuple[int, dict[str, str]]] = []
        self.espera = 0.0
        self.chegada = asyncio.Event()

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/avisos", self.receber)
        return app

    def verificar(self, corpo: bytes, cabecalhos: dict[str, str]) -> bool | None:
        if not self.segredos:
            return None
        for segredo in self.segredos:
            try:
                Webhook(segredo).verify(corpo, cabecalhos)
                return True
            except WebhookVerificationError:
                continue
        return False

    async def receber(self, request: web.Request) -> web.Response:
        corpo = await request.read()
        cabecalhos = {k.lower(): v for k, v in request.headers.items()}
        recebido = Recebido(cabecalhos, corpo, self.verificar(corpo, cabecalhos))
        self.recebidos.append(recebido)
        self.chegada.set()
        if self.espera:
            await asyncio.sleep(self.espera)
        if self.respostas:
            status, headers = self.respostas.pop(0)
            return web.Response(status=status, headers=headers, text="resposta roteirizada")
        return web.Response(status=204 if recebido.valido is not False else 401)

    def ids(self) -> list[str]:
        return [r.webhook_id for r in self.recebidos]
