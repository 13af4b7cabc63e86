"""Search across the documentation: every section of every guide, each error type of the catalog
and each code of the check (photo motivos and pendencias). The texts are few and fixed at start-up,
so the index is built once, in memory, and a query is a pass over a few hundred sections.

A query matches a section when every word of it is in the section (title or text), ignoring case
and accents ("validacao" finds "validação"); sections whose title has the words come first."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from graphql_api.conferencia.catalog import MOTIVOS, PENDENCIAS
from graphql_api.core.errors import CATALOG
from vitrine.settings import DOCS_DIR
from vitrine.templating import markdown_tokens

TRECHO = 160  # characters of text shown around the first word found
_PALAVRA = re.compile(r"\w+")
# Words that say nothing about a subject: a query keeps them only when it has nothing else.
_VAZIAS = frozenset(
    [
        "a",
        "o",
        "as",
        "os",
        "e",
        "em",
        "no",
        "na",
        "nos",
        "nas",
        "do",
        "da",
        "dos",
        "das",
        "de",
        "um",
        "uma",
        "uns",
        "umas",
        "com",
        "por",
        "para",
        "pelo",
        "pela",
        "que",
        "se",
        "ao",
    ]
)


@dataclass(frozen=True, slots=True)
class Secao:
    pagina: str  # the page's title
    titulo: str  # the section's heading ("" for the page's opening)
    caminho: str  # /docs/... with its #anchor
    texto: str


@dataclass(frozen=True, slots=True)
class Resultado:
    secao: Secao
    antes: str  # the excerpt around the first word found, split so a template can mark it
    achado: str
    depois: str


def _dobrar(texto: str) -> str:
    """Lower case without accents, one character for each character, so a position found in the
    folded text is the same position in the original."""
    return "".join((unicodedata.normalize("NFKD", c)[:1] or c).lower() if ord(c) > 127 else c.lower() for c in texto)


def _secoes_do_guia(nome: str, pagina: str, texto: str) -> list[Secao]:
    caminho = "/docs" if nome == "index" else f"/docs/{nome}"
    secoes: list[Secao] = []
    titulo, ancora = "", ""
    partes: list[str] = []
    tokens = markdown_tokens(texto)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            if partes or titulo:
                secoes.append(Secao(pagina, titulo, caminho + (f"#{ancora}" if ancora else ""), " ".join(partes)))
            titulo, ancora, partes = tokens[i + 1].content, str(token.attrs.get("id", "")), []
        elif token.type in ("fence", "code_block") or (token.type == "inline" and tokens[i - 1].type != "heading_open"):
            partes.append(token.content)
    if partes or titulo:
        secoes.append(Secao(pagina, titulo, caminho + (f"#{ancora}" if ancora else ""), " ".join(partes)))
    return secoes


@cache
def indice(guias: tuple[tuple[str, str], ...]) -> tuple[Secao, ...]:
    secoes: list[Secao] = []
    for nome, pagina in guias:
        path = DOCS_DIR / f"{nome}.md"
        if path.is_file():
            secoes += _secoes_do_guia(nome, pagina, path.read_text())
    for kind in CATALOG.values():
        texto = f"{kind.message} {kind.causa} {kind.correcao}"
        secoes.append(Secao("Erros", f"{kind.type} ({kind.status})", f"/docs/erros#{kind.type}", texto))
    for codigo in [*MOTIVOS.values(), *PENDENCIAS.values()]:
        texto = f"{codigo.titulo}. {codigo.causa} {codigo.correcao}"
        secoes.append(Secao("Pendências", codigo.codigo, f"/docs/pendencias#{codigo.codigo}", texto))
    return tuple(secoes)


def buscar(consulta: str, guias: tuple[tuple[str, str], ...], limite: int = 30) -> list[Resultado]:
    todas = [_dobrar(p) for p in _PALAVRA.findall(consulta)][:10]
    palavras = [p for p in todas if p not in _VAZIAS] or todas
    if not palavras:
        return []
    achados: list[tuple[int, int, Resultado]] = []
    for ordem, secao in enumerate(indice(guias)):
        titulo, texto = _dobrar(f"{secao.pagina} {secao.titulo}"), _dobrar(secao.texto)
        if not all(p in titulo or p in texto for p in palavras):
            continue
        peso = sum(10 for p in palavras if p in titulo) + sum(min(texto.count(p), 5) for p in palavras)
        achados.append((-peso, ordem, _recorte(secao, texto, palavras)))
    achados.sort(key=lambda a: (a[0], a[1]))
    return [r for _, _, r in achados[:limite]]


def _recorte(secao: Secao, dobrado: str, palavras: list[str]) -> Resultado:
    posicoes = [(dobrado.find(p), p) for p in palavras if p in dobrado]
    if not posicoes:  # only the title has the words
        return Resultado(secao, secao.texto[:TRECHO] + ("…" if len(secao.texto) > TRECHO else ""), "", "")
    inicio, palavra = min(posicoes)
    de = max(0, inicio - TRECHO // 2)
    ate = min(len(secao.texto), inicio + len(palavra) + TRECHO // 2)
    antes = ("…" if de else "") + secao.texto[de:inicio]
    depois = secao.texto[inicio + len(palavra) : ate] + ("…" if ate < len(secao.texto) else "")
    return Resultado(secao, antes, secao.texto[inicio : inicio + len(palavra)], depois)
