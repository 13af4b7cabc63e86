"""Cliente Python oficial da API da Vitrine (docs/cliente-python.md)."""

from vitrine_client import erros, modelos
from vitrine_client._nucleo import Pagina, Tentativas
from vitrine_client.assinatura import verificar_aviso
from vitrine_client.cliente import AsyncVitrine, ChaveDeApi, Vitrine
from vitrine_client.erros import *  # noqa: F403 (one exception per error type of the catalog)
from vitrine_client.oauth import (
    AppOAuth,
    AsyncAppOAuth,
    AutenticacaoOAuth,
    PedidoDeAutorizacao,
    Tokens,
    gerar_pkce,
)
from vitrine_client.paginas import AsyncPaginas, Paginas

__all__ = erros.__all__ + [
    "AppOAuth",
    "AsyncAppOAuth",
    "AsyncPaginas",
    "AsyncVitrine",
    "AutenticacaoOAuth",
    "ChaveDeApi",
    "Pagina",
    "Paginas",
    "PedidoDeAutorizacao",
    "Tentativas",
    "Tokens",
    "Vitrine",
    "gerar_pkce",
    "modelos",
    "verificar_aviso",
]
