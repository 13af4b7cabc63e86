"""Inputs of the OAuth domain, as pydantic models (graphql_api/core/inputs.py makes the GraphQL
input types): OAuth apps with their rules (name, type, redirect URIs and the scopes an app may
request; docs/portal.md, "Apps OAuth"), a secret's rotation, and the authorisation request."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

import strawberry
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.principal import INTEGRATOR_ONLY_SCOPES, OAUTH_SCOPES, Ambiente
from graphql_api.core.validation import linha, tem_controle, validate
from graphql_api.oauth import escopos as catalogo
from graphql_api.oauth import retornos

MAX_NOME = 100
MAX_REDIRECT_URIS = 5
MAX_REDIRECT_URI = 2000

M = TypeVar("M", bound=BaseModel)


# GraphQL enums of both inputs and outputs; member names equal their values, which are the
# GraphQL values too.
@strawberry.enum(description="confidencial: a server that keeps a client_secret; publico: client_id and PKCE only.")
class TipoApp(str, Enum):
    confidencial = "confidencial"
    publico = "publico"


@strawberry.enum(description="desativado is for good: a disabled app never comes back.")
class SituacaoApp(str, Enum):
    ativo = "ativo"
    desativado = "desativado"


def _validar_escopos(escopos: list[str]) -> list[str]:
    if not escopos:
        raise PydanticCustomError("obrigatorio", "Escolha pelo menos um escopo.")
    so_da_chave = [e for e in escopos if e in INTEGRATOR_ONLY_SCOPES]
    if so_da_chave:
        raise PydanticCustomError(
            "valor_invalido",
            "{escopos}: só a chave de API do integrador tem esses escopos; apps OAuth não podem pedi-los. "
            "Aceitos: {aceitos}.",
            {"escopos": ", ".join(sorted(set(so_da_chave))), "aceitos": ", ".join(catalogo.DESCRICOES)},
        )
    desconhecidos = [e for e in escopos if e not in OAUTH_SCOPES]
    if desconhecidos:
        raise PydanticCustomError(
            "valor_invalido",
            "Escopos desconhecidos: {escopos}. Aceitos: {aceitos}.",
            {"escopos": ", ".join(dict.fromkeys(desconhecidos)), "aceitos": ", ".join(catalogo.DESCRICOES)},
        )
    return catalogo.ordenados(escopos)  # repeated ones once, always in the catalogue's order


class NovoApp(BaseModel):
    """An OAuth app to register. Its environment is the caller's (the portal's session, the CLI's flag)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    nome: Annotated[StrictStr, linha(MAX_NOME, 1)]
    tipo: TipoApp
    # Shape only here; every rule in problemas_redirect_uris, which knows the environment.
    redirectUris: list[StrictStr]
    escopos: list[StrictStr]

    _escopos = field_validator("escopos")(_validar_escopos)


class EdicaoApp(BaseModel):
    """What may change in an app: name, redirect URIs and scopes (type and environment never do)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    nome: Annotated[StrictStr, linha(MAX_NOME, 1)] | None = None
    redirectUris: list[StrictStr] | None = None
    escopos: list[StrictStr] | None = None

    _escopos = field_validator("escopos")(_validar_escopos)


CARENCIA_MAX_HORAS = 7 * 24


class RotacaoSegredo(BaseModel):
    """A confidential app's new client_secret: how many hours the current one keeps working
    beside it, for the integrator to deploy the new one first (as GitHub and Google allow).
    0, the contract's default, ends it at once: what one does when a secret leaked."""

    model_config = ConfigDict(extra="forbid")

    carenciaHoras: StrictInt = 0

    @field_validator("carenciaHoras")
    @classmethod
    def _no_intervalo(cls, horas: int) -> int:
        if not 0 <= horas <= CARENCIA_MAX_HORAS:
            raise PydanticCustomError(
                "fora_do_intervalo",
                "A carência vai de 0 (o segredo atual deixa de valer na hora) a {maximo} horas (7 dias); "
                "foram {horas}. Escolha um valor nesse intervalo.",
                {"maximo": CARENCIA_MAX_HORAS, "horas": horas},
            )
        return horas


_HOST = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")


def _host_valido(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return bool(_HOST.match(host)) and len(host) <= 253


def _problema(uri: str, ambiente: Ambiente, tipo: TipoApp) -> tuple[str, str] | None:
    """(field code, what is wrong) with one redirect URI, or None when it may be registered.
    The URI is kept and later compared as the exact string (graphql_api/oauth/retornos.py), so
    anything a browser or a client could read two ways is refused rather than normalised.

    Which addresses each app may have (docs/oauth.md, "Endereços de retorno"): https:// always;
    in test apps also http://localhost:PORT, http://127.0.0.1 and http://[::1]; public apps, the
    native ones, also http://127.0.0.1 and http://[::1] in production (RFC 8252 §7.3) and a
    private-use scheme of their own (RFC 8252 §7.1)."""
    if not uri:
        return "obrigatorio", "está vazio."
    if len(uri) > MAX_REDIRECT_URI:
        return "muito_longo", f"passa de {MAX_REDIRECT_URI} caracteres."
    if tem_controle(uri):
        return "caractere_invalido", "tem caracteres de controle (como tabulação ou quebra de linha)."
    if any(c.isspace() for c in uri):
        return "formato_invalido", "tem espaços; codifique-os como %20."
    if not uri.isascii():
        return "formato_invalido", "tem caracteres fora do ASCII; codifique-os com % (por exemplo %C3%A7 para ç)."
    if "*" in uri:
        return "formato_invalido", "curingas (*) não são aceitos: registre cada endereço exato."
    if "#" in uri:
        return "formato_invalido", "não pode ter fragmento (#…): o código de autorização volta na query."
    if "\\" in uri:
        return "formato_invalido", "não pode ter barra invertida (\\)."
    if "." in uri.partition(":")[0] and ":" in uri:
        return _problema_de_app_instalado(uri, tipo)
    try:
        partes = urlsplit(uri)
        porta = partes.port
    except ValueError:
        return "formato_invalido", "não é um endereço válido (confira o servidor e a porta)."
    if partes.scheme not in ("https", "http") or not uri.startswith(f"{partes.scheme}://"):
        return "url_nao_https", "precisa ser um endereço completo começando com https://."
    if "@" in partes.netloc:
        return "formato_invalido", "não pode ter usuário nem senha antes do servidor (…@)."
    host = partes.hostname or ""
    if not host:
        return "formato_invalido", "precisa ter um servidor (https://servidor/caminho)."
    if not _host_valido(host):
        return "formato_invalido", "o nome do servidor tem caracteres inválidos."
    if (porta is not None and not 1 <= porta <= 65535) or partes.netloc.endswith(":"):
        return "formato_invalido", "a porta precisa ser um número de 1 a 65535."
    if partes.scheme == "http":
        return _problema_de_http(host, porta, ambiente, tipo)
    return None


def _problema_de_http(host: str, porta: int | None, ambiente: Ambiente, tipo: TipoApp) -> tuple[str, str] | None:
    """http:// is for a program on the seller's own computer: the loopback interface."""
    ip_local = host in ("127.0.0.1", "::1")  # any port will match (RFC 8252 §7.3)
    if ambiente is Ambiente.PRODUCAO:
        if ip_local and tipo is TipoApp.confidencial:
            return (
                "url_nao_https",
                "apps de produção confidenciais só aceitam https:// (http://127.0.0.1 e http://[::1] valem "
                "em apps públicos, para aplicativos instalados).",
            )
        if not ip_local:
            return "url_nao_https", "apps de produção só aceitam https://."
        return None
    if host not in retornos.HOSTS_DO_COMPUTADOR:
        return (
            "url_nao_https",
            "precisa usar https:// (http:// só em apps de teste: localhost, 127.0.0.1 e [::1]).",
        )
    if porta is None and not ip_local:
        return "formato_invalido", f"http://{host} precisa da porta (por exemplo http://{host}:8080/retorno)."
    return None


def _problema_de_app_instalado(uri: str, tipo: TipoApp) -> tuple[str, str] | None:
    """A private-use scheme (com.exemplo.app:/volta): a native app's own, RFC 8252 §7.1."""
    esquema, _, resto = uri.partition(":")
    if resto[:1].isdigit():  # a server and its port without the scheme (loja.exemplo.com:8443/…)
        return "url_nao_https", "precisa ser um endereço completo começando com https://."
    if tipo is TipoApp.confidencial:
        return (
            "formato_invalido",
            "esquemas próprios (com.exemplo.app:/…) só valem para apps públicos: um aplicativo instalado não "
            "guarda segredo. Registre um app público para ele.",
        )
    if esquema != esquema.lower():
        return "formato_invalido", "o esquema próprio deve estar em minúsculas (com.exemplo.app:/volta)."
    if retornos.esquema_proprio(uri) is None:
        return (
            "formato_invalido",
            "o esquema próprio deve ser um domínio seu escrito ao contrário, com letras, dígitos e hífens "
            "(com.exemplo.app:/volta para exemplo.com).",
        )
    if resto.startswith("//"):
        return (
            "formato_invalido",
            f"use uma barra só depois do esquema ({esquema}:/caminho), como pede o RFC 8252: não há servidor.",
        )
    if not resto.startswith("/"):
        return "formato_invalido", f"o caminho começa com barra ({esquema}:/caminho)."
    return None


def _curto(uri: str) -> str:
    return uri if len(uri) <= 60 else uri[:57] + "…"


def problemas_redirect_uris(
    uris: list[str], ambiente: Ambiente, tipo: TipoApp = TipoApp.confidencial
) -> list[FieldError]:
    """Every problem of an app's redirect URIs, one FieldError on `redirectUris` per refused URI,
    numbered from 1 as the portal lists them. Empty when all of them may be registered. Without
    the app's type, the rules of a confidential app (the stricter ones)."""
    if not uris:
        return [FieldError("redirectUris", "obrigatorio", "Informe pelo menos um endereço de retorno (redirect URI).")]
    if len(uris) > MAX_REDIRECT_URIS:
        return [
            FieldError(
                "redirectUris",
                "muito_longo",
                f"No máximo {MAX_REDIRECT_URIS} endereços de retorno por app; foram {len(uris)}.",
            )
        ]
    problemas: list[FieldError] = []
    vistos: dict[str, int] = {}
    for numero, uri in enumerate(uris, start=1):
        problema = _problema(uri, ambiente, tipo)
        if problema is None and uri in vistos:
            problema = "duplicado", f"repete o endereço {vistos[uri]}."
        vistos.setdefault(uri, numero)
        if problema is not None:
            codigo, texto = problema
            exibido = f" ({_curto(uri)})" if uri and codigo != "caractere_invalido" else ""
            problemas.append(FieldError("redirectUris", codigo, f"Endereço {numero}{exibido}: {texto}"))
    return problemas


def ler(model: type[M], dados: Any, ambiente: Ambiente, tipo: TipoApp | None = None) -> M:
    """An app's input read by its model, and its redirect URIs by the rules of the app's
    environment and type (a new app's own, or `tipo`, the edited app's), every problem reported
    at once (a form shows each one beside its field). Doors validate with it first
    (`entrada(partial(ler, NovoApp, ambiente=...), dados)`)."""
    problemas: list[FieldError] = []
    parsed: M | None = None
    try:
        parsed = validate(model, dados)
    except ApiError as error:
        problemas = list(error.fields)
    uris = getattr(parsed, "redirectUris", None) if parsed else _uris_sem_erro_de_forma(dados, problemas)
    if uris is not None:
        problemas += problemas_redirect_uris(uris, ambiente, tipo or _tipo_pedido(dados))
    if problemas:
        raise ApiError("VALIDATION_FAILED", fields=problemas)
    assert parsed is not None
    return parsed


def _tipo_pedido(dados: Any) -> TipoApp:
    """The type a new app asks for, when it is one (else the stricter rules apply)."""
    try:
        return TipoApp(dados.get("tipo") if isinstance(dados, dict) else None)
    except ValueError:
        return TipoApp.confidencial


def _uris_sem_erro_de_forma(dados: Any, problemas: list[FieldError]) -> list[str] | None:
    """The redirect URIs of an input another field made invalid, when they are a list of texts."""
    uris = dados.get("redirectUris") if isinstance(dados, dict) else None
    if not isinstance(uris, list) or any(p.campo.startswith("redirectUris") for p in problemas):
        return None
    return [u.strip() for u in uris]


# The contract's query parameters of /oauth/autorizar, and the input field each one fills.
CAMPOS_DO_PEDIDO = {
    "response_type": "responseType",
    "client_id": "clientId",
    "redirect_uri": "redirectUri",
    "scope": "scope",
    "state": "state",
    "code_challenge": "codeChallenge",
    "code_challenge_method": "codeChallengeMethod",
}


@dataclass(frozen=True)
class Pedido:
    """The query of /oauth/autorizar as it came: each parameter's value (None when absent) and
    the names of those sent more than once (RFC 6749 §3.1: parameters must not repeat)."""

    valores: dict[str, str | None]
    repetidos: tuple[str, ...] = ()

    def get(self, nome: str) -> str | None:
        return self.valores.get(nome)


class PedidoAutorizacao(BaseModel):
    """The query of /oauth/autorizar as the browser sent it. Nothing is refused here: the
    domain answers each problem the OAuth way (an error page, or an error for the app)."""

    model_config = ConfigDict(extra="forbid")

    responseType: str | None = None
    clientId: str | None = None
    redirectUri: str | None = None
    scope: str | None = None
    state: str | None = None
    codeChallenge: str | None = None
    codeChallengeMethod: str | None = None
    parametrosRepetidos: list[str] = []

    @staticmethod
    def dados_da_query(campos: Any) -> dict[str, Any]:
        """The input's data from the request's query (or the form that carried it back): a
        multidict, so that parameters sent more than once are seen (RFC 6749 §3.1)."""
        dados: dict[str, Any] = {
            campo: campos[nome] for nome, campo in CAMPOS_DO_PEDIDO.items() if isinstance(campos.get(nome), str)
        }
        dados["parametrosRepetidos"] = [nome for nome in CAMPOS_DO_PEDIDO if len(campos.getall(nome, [])) > 1]
        return dados

    def como_pedido(self):
        return Pedido(
            valores={nome: getattr(self, campo) for nome, campo in CAMPOS_DO_PEDIDO.items()},
            repetidos=tuple(self.parametrosRepetidos),
        )
