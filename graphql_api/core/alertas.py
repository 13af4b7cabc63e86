"""The integrator's alerts, as the domains that judge their conditions see them: a notice address
failing (avisos), a quota passed or packages bought cycle after cycle (créditos) open and close
alerts through these ports. The alerts themselves (rows, e-mails at most once per kind every 6
hours, the list the integration status shows) are graphql_api/integracao/alertas.py, which the
composition root installs here (vitrine/ligacoes.py)."""

from __future__ import annotations

from datetime import datetime

from graphql_api.core.sinais import porta


@porta("alertas.abrir")
async def abrir(
    integrador_id: str,
    ambiente: str,
    tipo: str,
    chave: str,
    mensagem: str,
    *,
    evidencia: dict | None = None,
    smtp_url: str | None,
    now: datetime | None = None,
    assunto_email: str | None = None,
    texto_email: str | None = None,
) -> object:
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
