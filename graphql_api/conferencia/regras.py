"""The rules of the check, as pure functions of the ficha and the measured photos:

- `triar`: each photo's situacao (aprovada / reprovada) and motivos;
- `avaliar`: per media type, approved or not, its pendencias, the gallery sizes that may be
  ordered and the video score.

The numbers live in graphql_api/conferencia/catalog.py, next to the texts that quote them."""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from graphql_api.conferencia import catalog as c
from graphql_api.conferencia.analise import Medidas, distancia
from graphql_api.conferencia.fotos import Recebida
from graphql_api.midia.enquadramento import (
    AMPLIACAO_MAXIMA,
    CONFIANCA_MINIMA,
    LADO_PRINCIPAL,
    ampliacao,
    lado_necessario,
)
from graphql_api.midia.recorte import CAUSAS

APROVADA, REPROVADA = "aprovada", "reprovada"


@dataclass(slots=True)
class Item:
    """One photo of the ficha after screening (an entry of fotos.itens)."""

    url: str
    ordem: int
    principal: bool
    medidas: Medidas | None
    motivos: list[dict[str, str]] = field(default_factory=list)

    def motivo(self, codigo: str, detalhe: str) -> None:
        self.motivos.append({"codigo": codigo, "severidade": c.MOTIVOS[codigo].severidade, "detalhe": detalhe})

    @property
    def aprovada(self) -> bool:
        return not any(m["severidade"] == c.BLOQUEIO for m in self.motivos)

    def publico(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "ordem": self.ordem,
            "principal": self.principal,
            "situacao": APROVADA if self.aprovada else REPROVADA,
            "largura": self.medidas.largura if self.medidas else None,
            "altura": self.medidas.altura if self.medidas else None,
            "motivos": self.motivos,
        }


def principal_index(imagens: list[dict]) -> int:
    """The photo marked principal, else the one of lowest ordem (imagens come sorted by ordem)."""
    return next((i for i, im in enumerate(imagens) if im.get("principal")), 0)


def triar(imagens: list[dict], recebidas: dict[str, Recebida]) -> list[Item]:
    principal = principal_index(imagens)
    itens = []
    for index, imagem in enumerate(imagens):
        recebida = recebidas[imagem["url"]]
        item = Item(imagem["url"], imagem["ordem"], index == principal, recebida.medidas)
        if recebida.falha is not None:
            item.motivo(recebida.falha.codigo, recebida.falha.detalhe)
        else:
            _qualidade(item)
        itens.append(item)
    _duplicadas(itens, principal)
    return itens


def _qualidade(item: Item) -> None:
    m = item.medidas
    assert m is not None
    tamanho = f"{m.largura} × {m.altura} pixels"
    if m.menor_lado < c.MIN_LADO:
        item.motivo("FOTO_RESOLUCAO_BAIXA", f"{tamanho}; o mínimo é {c.MIN_LADO} no menor lado.")
    elif m.menor_lado < c.LADO_IDEAL:
        item.motivo("FOTO_RESOLUCAO_ABAIXO_DO_IDEAL", f"{tamanho}; o ideal é {c.LADO_IDEAL} ou mais no menor lado.")
    if m.nitidez < c.MIN_NITIDEZ:
        item.motivo("FOTO_DESFOCADA", f"Nitidez {m.nitidez:.0f}; o mínimo é {c.MIN_NITIDEZ:.0f}.")
    # Measures of an older analysis lack what follows (None): nothing is said about them. A photo
    # already refused (blurred, too small) cannot be cut out for that very reason: its motivo says it.
    if m.separavel is False and item.aprovada:
        causa = CAUSAS.get(m.recorte_causa or "")
        item.motivo(
            "FOTO_FUNDO_INSEPARAVEL",
            f"Confiança do recorte de {m.recorte_confianca or 0:.0%}; a imagem principal pede {CONFIANCA_MINIMA:.0%}"
            + (f": {causa}." if causa else "."),
        )
    if m.texto_sobreposto:
        item.motivo("FOTO_TEXTO_SOBREPOSTO", f"Lido sobre a foto: “{m.texto_sobreposto}”.")
    # (a photo refused for its resolution gets no second motivo for the same pixels)
    if m.lado_produto is not None and m.menor_lado >= c.MIN_LADO and ampliacao(m.lado_produto) > AMPLIACAO_MAXIMA:
        item.motivo(
            "FOTO_PRODUTO_PEQUENO",
            f"O produto tem {m.lado_produto} pixels no lado maior; a imagem principal de {LADO_PRINCIPAL} pixels "
            f"pede {lado_necessario()} e o ampliaria {c.vezes(ampliacao(m.lado_produto))} "
            f"(o máximo é {c.vezes(AMPLIACAO_MAXIMA)}).",
        )


def _duplicadas(itens: list[Item], principal: int) -> None:
    """A photo too close to one already kept is refused; the principal is kept first, then by ordem.
    Only photos approved on their own merits are kept, so a sharp copy of a blurred photo survives."""
    kept: list[tuple[Item, Medidas]] = []
    for item in [itens[principal], *itens[:principal], *itens[principal + 1 :]] if itens else []:
        medidas = item.medidas
        if medidas is None or not item.aprovada:
            continue
        twin = next((k for k, m in kept if distancia(m.hash, medidas.hash) <= c.MAX_DISTANCIA_DUPLICADA), None)
        if twin is not None:
            item.motivo("FOTO_QUASE_DUPLICADA", f"Igual ou quase igual à foto de ordem {twin.ordem}.")
        else:
            kept.append((item, medidas))


@dataclass(frozen=True, slots=True)
class Fatos:
    """What the rules read from the ficha and the screened photos."""

    aprovadas: int
    aprovadas_hd: int
    principal_aprovada: bool
    # The main image is the product cut out of the first approved photo, in gallery order, that can
    # be cut out. A photo measured before cut-outs were measured counts as one that can.
    principal_recortavel: bool  # the photo that opens the gallery can
    alguma_recortavel: bool  # some approved photo can
    # the photo that opens the gallery, or the one the main image is made from, has text over it
    # (the first is placed whole when it cannot be cut out: its text shows either way)
    principal_texto_sobreposto: bool
    principal_ampliacao: float  # how much the main image enlarges that photo's product (1.0: unknown)
    descricao: int  # characters of descricao + descricaoComplementar
    atributos: int
    marca: bool
    medidas: bool
    composicao: bool
    garantia: bool
    prova_social: bool
    perguntas: int


def fatos(ficha: dict[str, Any], itens: list[Item]) -> Fatos:
    aprovadas = [i for i in itens if i.aprovada]
    principal = next((i for i in itens if i.principal), None)
    em_ordem = sorted(aprovadas, key=lambda i: (not i.principal, i.ordem))  # the gallery's order
    fonte = next((i.medidas for i in em_ordem if _recortavel(i.medidas)), None)
    abertura = em_ordem[0].medidas if em_ordem else None
    dimensoes = ficha.get("dimensoes") or {}
    return Fatos(
        aprovadas=len(aprovadas),
        aprovadas_hd=sum(1 for i in aprovadas if i.medidas is not None and i.medidas.menor_lado >= c.LADO_HD),
        principal_aprovada=principal is not None and principal.aprovada,
        principal_recortavel=_recortavel(abertura),
        alguma_recortavel=fonte is not None,
        principal_texto_sobreposto=any(m is not None and bool(m.texto_sobreposto) for m in (abertura, fonte)),
        principal_ampliacao=ampliacao(fonte.lado_produto) if fonte is not None and fonte.lado_produto else 1.0,
        descricao=len(ficha.get("descricao") or "") + len(ficha.get("descricaoComplementar") or ""),
        atributos=len(ficha.get("atributos") or []),
        marca=bool(ficha.get("marca")),
        medidas=all(dimensoes.get(k) for k in ("largura", "altura", "profundidade", "unidade")),
        composicao=bool(ficha.get("composicaoOferta")),
        garantia=bool(ficha.get("garantia")),
        prova_social=_prova_social(ficha),
        perguntas=len(ficha.get("perguntas") or []),
    )


def _recortavel(medidas: Medidas | None) -> bool:
    return medidas is not None and medidas.separavel is not False


def _prova_social(ficha: dict[str, Any]) -> bool:
    """Reviews worth showing: a good average over real reviews (a low one is not shown)."""
    resumo = ficha.get("provaSocial") or {}
    if (resumo.get("totalAvaliacoes") or 0) >= 1 and (resumo.get("notaMedia") or 0) >= c.MIN_NOTA_PROVA_SOCIAL:
        return True
    notas = [a["nota"] for a in ficha.get("avaliacoes") or []]
    return len(notas) >= c.MIN_AVALIACOES_PROVA_SOCIAL and fmean(notas) >= c.MIN_NOTA_PROVA_SOCIAL


class _Pendencias(list):
    def add(self, codigo: str, campo: str) -> None:
        self.append({"codigo": codigo, "severidade": c.PENDENCIAS[codigo].severidade, "campo": campo})

    @property
    def bloqueado(self) -> bool:
        return any(p["severidade"] == c.BLOQUEIO for p in self)


def galeria(f: Fatos) -> dict[str, Any]:
    """Each gallery image needs a photo or a piece of the ficha: the principal photo, one image per
    other approved photo, highlights, measurements, what is in the box, warranty, social proof, Q&A."""
    imagens = f.aprovadas + sum(
        (
            f.atributos >= c.MIN_ATRIBUTOS_DESTAQUES,
            f.medidas,
            f.composicao,
            f.garantia,
            f.prova_social,
            f.perguntas >= c.MIN_PERGUNTAS,
        )
    )
    p = _Pendencias()
    if f.aprovadas == 0:
        p.add("GALERIA_SEM_FOTO_APROVADA", "imagens")
    elif imagens < c.PACOTES_GALERIA[0]:
        p.add("GALERIA_CONTEUDO_INSUFICIENTE", "imagens")
    if imagens > c.MAX_IMAGENS_GALERIA:
        p.add("GALERIA_QUANTIDADE_ACIMA_DO_SUPORTADO", "imagens")
    if f.aprovadas and not f.principal_aprovada:
        p.add("GALERIA_FOTO_PRINCIPAL_REPROVADA", "imagens.principal")
    if f.aprovadas and not f.alguma_recortavel:
        p.add("GALERIA_SEM_FOTO_RECORTAVEL", "imagens.principal")
    elif f.aprovadas and not f.principal_recortavel:
        p.add("GALERIA_PRINCIPAL_FUNDO_INSEPARAVEL", "imagens.principal")
    if f.principal_texto_sobreposto:
        p.add("GALERIA_PRINCIPAL_TEXTO_SOBREPOSTO", "imagens.principal")
    if f.principal_ampliacao > AMPLIACAO_MAXIMA:
        p.add("GALERIA_PRINCIPAL_RESOLUCAO_EFETIVA_BAIXA", "imagens.principal")
    if f.atributos < c.MIN_ATRIBUTOS_DESTAQUES:
        p.add("GALERIA_SEM_DESTAQUES", "atributos")
    if not f.medidas:
        p.add("GALERIA_SEM_MEDIDAS", "dimensoes")
    if not f.composicao:
        p.add("GALERIA_SEM_COMPOSICAO", "composicaoOferta")
    if not f.prova_social:
        p.add("GALERIA_SEM_PROVA_SOCIAL", "provaSocial")
    maximo = min(imagens, c.MAX_IMAGENS_GALERIA)
    aprovado = not p.bloqueado
    return {
        "tipo": "galeria",
        "aprovado": aprovado,
        "quantidadeMaximaImagens": maximo,
        "quantidadesAprovadas": [q for q in c.PACOTES_GALERIA if q <= maximo] if aprovado else [],
        "notaVideo": None,
        "pendencias": list(p),
    }


def video(f: Fatos, r: c.RequisitosVideo) -> dict[str, Any]:
    p = _Pendencias()
    if f.aprovadas < r.min_fotos:
        p.add(f"{r.prefixo}_FOTOS_INSUFICIENTES", "imagens")
    elif f.aprovadas_hd < r.min_fotos_hd:
        p.add(f"{r.prefixo}_RESOLUCAO_INSUFICIENTE", "imagens")
    if f.descricao < r.min_descricao:
        p.add(f"{r.prefixo}_DESCRICAO_CURTA", "descricao")
    if r.min_fotos <= f.aprovadas < r.fotos_ideais:
        p.add(f"{r.prefixo}_POUCAS_FOTOS", "imagens")
    if f.atributos < r.atributos_ideais:
        p.add(f"{r.prefixo}_POUCOS_ATRIBUTOS", "atributos")
    if not f.marca:
        p.add(f"{r.prefixo}_SEM_MARCA", "marca")
    if r.cena_medidas and not f.medidas:
        p.add(f"{r.prefixo}_SEM_MEDIDAS", "dimensoes")
    if r.cena_prova_social and not f.prova_social:
        p.add(f"{r.prefixo}_SEM_PROVA_SOCIAL", "provaSocial")
    return {
        "tipo": r.tipo,
        "aprovado": not p.bloqueado,
        "quantidadeMaximaImagens": None,
        "quantidadesAprovadas": None,
        "notaVideo": nota_video(f, r),
        "pendencias": list(p),
    }


def nota_video(f: Fatos, r: c.RequisitosVideo) -> int:
    """0-100: how much of what the video type uses the ficha gives (also shown when rejected)."""
    cenas = [ok for wanted, ok in ((r.cena_medidas, f.medidas), (r.cena_prova_social, f.prova_social)) if wanted]
    score = (
        35 * min(1.0, f.aprovadas / r.fotos_ideais)
        + 25 * min(1.0, f.descricao / r.descricao_ideal)
        + 15 * min(1.0, f.atributos / r.atributos_ideais)
        + 10 * (f.aprovadas_hd / f.aprovadas if f.aprovadas else 0.0)
        + 5 * f.principal_recortavel
        + 5 * f.marca
        + 5 * (fmean(cenas) if cenas else 1.0)
    )
    return round(score)


def avaliar(ficha: dict[str, Any], itens: list[Item]) -> list[dict[str, Any]]:
    f = fatos(ficha, itens)
    return [galeria(f), *(video(f, r) for r in c.VIDEOS)]
