"""The integrator's alerts, as the domains that judge their conditions see them: a notice address
failing (avisos), a quota passed or packages bought cycle after cycle (créditos) open and close
alerts through these ports. The alerts themselves (rows, e-mails at most once per kind every 6
hours, the list the integration status shows) are graphql_api/integracao/alertas.py, which the
composition root installs here (vitrine/ligacoes.py)."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from datetime import datetime

from graphql_api.core.sinais import porta


@dataclass(frozen=True, slots=True)
class NovoAlerta:
    """An alert to open: one open alert per (tipo, chave) of an integrator's environment. Callers
    with more to say than `mensagem` give the e-mail's subject and text."""

    integrador_id: str
    ambiente: str
    tipo: str
    chave: str
    mensagem: str
    _: KW_ONLY
    smtp_url: str | None
    evidencia: dict | None = None
    now: datetime | None = None
    assunto_email: str | None = None
    texto_email: str | None = None


@porta("alertas.abrir")
async def abrir(novo: NovoAlerta) -> object:
    """Open the alert (or keep the open one) and e-mail it unless one of its kind went out < 6 h ago."""
    raise NotImplementedError


@porta("alertas.fechar")
async def fechar(integrador_id: str, ambiente: str, tipo: str | tuple[str, ...], chave: str) -> int:
    """Close the open alerts of these kinds about `chave`; how many were closed."""
    raise NotImplementedError


@porta("alertas.fechar_exceto")
async def fechar_exceto(
    integrador_id: str, ambiente: str, tipos: tuple[str, ...], manter: list[tuple[str, str]]
) -> int:
    """Close the open alerts of these kinds but the (tipo, chave) pairs in `manter`."""
    raise NotImplementedError
