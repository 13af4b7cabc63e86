"""Exceptions: one class per error type of the service's catalog (`TipoErro` of the OpenAPI
document), all under `ErroVitrine`, each carrying the request id and the documentation link.

    try:
        cliente.galerias.criar(produto_id, quantidade_imagens=3)
    except CreditosInsuficientes as erro:
        print(erro.mensagem, erro.request_id, erro.documentacao)
"""

from __future__ import annotations

from typing import Any

import httpx

from vitrine_client.modelos import CampoErro, TipoErro


class ErroVitrine(Exception):
    """Any failure of a call to the Vitrine. `tipo` is the catalog type (None for failures with no
    answer from the service, such as ErroDeConexao); `campos` lists the fields at fault."""

    tipo: TipoErro | None = None

    def __init__(
        self,
        mensagem: str,
        *,
        status: int | None = None,
        tipo: str | None = None,
        descricao: str | None = None,
        campos: list[CampoErro] | None = None,
        documentacao: str | None = None,
        request_id: str | None = None,
        retry_after: float | None = None,
        corpo: Any = None,
        cabecalhos: httpx.Headers | None = None,
    ) -> None:
        super().__init__(mensagem)
        self.mensagem = mensagem
        self.status = status
        # the type as the service sent it (also for types newer than this client)
        self.tipo_recebido = tipo if tipo is not None else (self.tipo.value if self.tipo else None)
        self.descricao = descricao
        self.campos = campos or []
        self.documentacao = documentacao
        self.request_id = request_id
        self.retry_after = retry_after
        self.corpo = corpo
        self.cabecalhos = cabecalhos or httpx.Headers()

    def __str__(self) -> str:
        partes = [f"{self.tipo_recebido or type(self).__name__}: {self.mensagem}"]
        if self.descricao:
            partes.append(self.descricao)
        partes.extend(f"{c.campo}: {c.mensagem}" for c in self.campos)
        if self.request_id:
            partes.append(f"request id {self.request_id}")
        if self.documentacao:
            partes.append(self.documentacao)
        return " | ".join(partes)


class ErroDeConexao(ErroVitrine):
    """The service could not be reached (refused, reset, timed out) after every retry."""


class RespostaInesperada(ErroVitrine):
    """An answer outside the contract (not JSON, or no `error` object on a 4xx/5xx)."""


class ErroOAuth(ErroVitrine):
    """An error of the OAuth token endpoints (RFC 6749: `error` and `error_description`); `erro`
    is the OAuth code (invalid_grant, invalid_client, ...)."""

    def __init__(self, erro: str, mensagem: str, **kwargs: Any) -> None:
        super().__init__(mensagem, tipo=erro, **kwargs)
        self.erro = erro


# One class per catalog type, in the catalog's order of status.
class RequisicaoMalformada(ErroVitrine):
    tipo = TipoErro.BAD_REQUEST


class JsonInvalido(ErroVitrine):
    tipo = TipoErro.INVALID_JSON


class IdempotencyKeyObrigatoria(ErroVitrine):
    tipo = TipoErro.IDEMPOTENCY_KEY_REQUIRED


class IdempotencyKeyInvalida(ErroVitrine):
    tipo = TipoErro.IDEMPOTENCY_KEY_INVALID


class HorarioDePagamentoInvalido(ErroVitrine):
    tipo = TipoErro.PAYMENT_TIMESTAMP_INVALID


class AssinaturaDePagamentoInvalida(ErroVitrine):
    tipo = TipoErro.PAYMENT_SIGNATURE_INVALID


class NaoAutorizado(ErroVitrine):
    tipo = TipoErro.UNAUTHORIZED


class CreditosInsuficientes(ErroVitrine):
    tipo = TipoErro.INSUFFICIENT_CREDITS


class IntegradorPausado(ErroVitrine):
    tipo = TipoErro.INTEGRATOR_PAUSED


class Proibido(ErroVitrine):
    tipo = TipoErro.FORBIDDEN


class ReautenticacaoNecessaria(ErroVitrine):
    tipo = TipoErro.REAUTHENTICATION_REQUIRED


class NaoEncontrado(ErroVitrine):
    tipo = TipoErro.NOT_FOUND


class RotaNaoEncontrada(ErroVitrine):
    tipo = TipoErro.ROUTE_NOT_FOUND


class MetodoNaoPermitido(ErroVitrine):
    tipo = TipoErro.METHOD_NOT_ALLOWED


class TempoDoCorpoEsgotado(ErroVitrine):
    """The body did not arrive whole within the service's read time; nothing was processed."""

    tipo = TipoErro.REQUEST_TIMEOUT


class IdempotencyKeyReutilizada(ErroVitrine):
    tipo = TipoErro.IDEMPOTENCY_KEY_REUSED


class IdempotencyKeyEmAndamento(ErroVitrine):
    tipo = TipoErro.IDEMPOTENCY_KEY_IN_PROGRESS


class ContaJaExiste(ErroVitrine):
    """`existente` is the id of the account that already has this codigoExterno."""

    tipo = TipoErro.ACCOUNT_ALREADY_EXISTS

    @property
    def existente(self) -> str | None:
        return next((c.id for c in self.campos if c.id), None)


class ClienteOAuthInvalido(ErroVitrine):
    tipo = TipoErro.OAUTH_CLIENT_INVALID


class RedirectUriInvalida(ErroVitrine):
    tipo = TipoErro.OAUTH_REDIRECT_URI_INVALID


class ConferenciaNaoConcluida(ErroVitrine):
    tipo = TipoErro.CHECK_NOT_READY


class TipoDeMidiaNaoAprovado(ErroVitrine):
    tipo = TipoErro.MEDIA_TYPE_NOT_APPROVED


class EtapasPendentes(ErroVitrine):
    """One entry of `campos` per missing integration step (codigo = the step)."""

    tipo = TipoErro.INTEGRATION_STEPS_PENDING


class ProducaoNaoLiberada(ErroVitrine):
    tipo = TipoErro.PRODUCTION_NOT_RELEASED


class ContratoNaoAceito(ErroVitrine):
    tipo = TipoErro.CONTRACT_NOT_ACCEPTED


class EnderecoDeAvisosNecessario(ErroVitrine):
    tipo = TipoErro.NOTICE_ADDRESS_REQUIRED


class EnderecoDeAvisosDesativado(ErroVitrine):
    tipo = TipoErro.NOTICE_ADDRESS_DISABLED


class LimiteDeEnderecosDeAvisos(ErroVitrine):
    tipo = TipoErro.NOTICE_ADDRESS_LIMIT_REACHED


class OrigemNaoPermitida(ErroVitrine):
    """Only in a browser's CORS preflight: the page's origin is no public app's redirect origin."""

    tipo = TipoErro.CORS_ORIGIN_NOT_ALLOWED


class LimiteDeAppsOAuth(ErroVitrine):
    tipo = TipoErro.OAUTH_APP_LIMIT_REACHED


class AppOAuthDesativado(ErroVitrine):
    tipo = TipoErro.OAUTH_APP_DISABLED


class AppOAuthSemSegredo(ErroVitrine):
    tipo = TipoErro.OAUTH_APP_HAS_NO_SECRET


class RecargaEncerrada(ErroVitrine):
    tipo = TipoErro.PURCHASE_CLOSED


class ConfirmacaoDePagamentoRepetida(ErroVitrine):
    tipo = TipoErro.PAYMENT_CONFIRMATION_REUSED


class PagamentoNaoPermitido(ErroVitrine):
    tipo = TipoErro.PAYMENT_NOT_ALLOWED


class CorpoGrandeDemais(ErroVitrine):
    tipo = TipoErro.PAYLOAD_TOO_LARGE


class TipoDeConteudoNaoSuportado(ErroVitrine):
    tipo = TipoErro.UNSUPPORTED_MEDIA_TYPE


class EnderecoLongoDemais(ErroVitrine):
    tipo = TipoErro.URI_TOO_LONG


class CabecalhosGrandesDemais(ErroVitrine):
    tipo = TipoErro.HEADERS_TOO_LARGE


class ErroDeValidacao(ErroVitrine):
    """`campos` says which field failed and why (campo is the path, e.g. imagens[0].url)."""

    tipo = TipoErro.VALIDATION_FAILED


class LimiteExcedido(ErroVitrine):
    """The per-minute limit; `retry_after` is how many seconds to wait before the next call with
    the same key (the client already waited and retried up to its limit)."""

    tipo = TipoErro.TOO_MANY_REQUESTS


class ConexoesDemais(ErroVitrine):
    """Too many connections open at once from this address: reuse a bounded connection pool."""

    tipo = TipoErro.TOO_MANY_CONNECTIONS


class ClienteFechouAConexao(ErroVitrine):
    """Never received: the call log's record of a call whose client hung up mid-body (499)."""

    tipo = TipoErro.CLIENT_CLOSED_REQUEST


class LimiteDeConferencias(ErroVitrine):
    """10 checks per product in 24 hours; `retry_after` says when the next one is possible."""

    tipo = TipoErro.CHECK_LIMIT_EXCEEDED


class LimiteDeEscutas(ErroVitrine):
    """At most 3 listening sessions (vitrine-cli listen) open per integrator."""

    tipo = TipoErro.NOTICE_LISTEN_LIMIT_REACHED


class EscutaEncerrada(ErroVitrine):
    """The listening session has ended (Ctrl-C, DELETE, or a minute without a sign of life)."""

    tipo = TipoErro.NOTICE_LISTEN_CLOSED


class SoNoAmbienteDeTeste(ErroVitrine):
    """Listening sessions and sample events exist only with an sk_test_ key."""

    tipo = TipoErro.TEST_ENVIRONMENT_ONLY


class ErroInterno(ErroVitrine):
    tipo = TipoErro.INTERNAL_ERROR


class ServicoIndisponivel(ErroVitrine):
    tipo = TipoErro.SERVICE_UNAVAILABLE


def _por_tipo() -> dict[str, type[ErroVitrine]]:
    classes: dict[str, type[ErroVitrine]] = {}
    pendentes: list[type[ErroVitrine]] = [ErroVitrine]
    while pendentes:
        classe = pendentes.pop()
        pendentes.extend(classe.__subclasses__())
        if "tipo" in classe.__dict__ and classe.tipo is not None:
            classes[classe.tipo.value] = classe
    return classes


POR_TIPO: dict[str, type[ErroVitrine]] = _por_tipo()
"""Catalog type -> exception class (tests check that every TipoErro has one)."""


def classe_do_tipo(tipo: str) -> type[ErroVitrine]:
    """The exception of a catalog type; a type newer than this client is an ErroVitrine."""
    return POR_TIPO.get(tipo, ErroVitrine)


class AvisoInvalido(Exception):
    """A notice whose signature does not match the secret, or whose timestamp is more than 5
    minutes away: answer it with 400, 401 or 403 and do not act on it."""


__all__ = [
    nome
    for nome, valor in list(globals().items())
    if isinstance(valor, type) and issubclass(valor, Exception) and valor.__module__ == __name__
]
