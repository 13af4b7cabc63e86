"""What a video shows and says, scene by scene, from the ficha (no rendering here).

Every spoken sentence belongs to the scene it describes (the warranty is said over the warranty
card), so a scene lasts as long as its sentences; scenes without speech are short photo
interludes. Each scene has a priority: when the narration makes a video longer than its type
allows, the least important scenes go first (the opening and closing always stay)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphql_api.geracao.render.cards import attribute_rows, dimension_entries, number, rating, social_proof
from graphql_api.geracao.render.speech import Clip
from graphql_api.geracao.render.types import FotoAprovada, ordered_fotos

PHOTO_SCENES = ("abertura", "foto", "encerramento")  # photo with motion; the rest are cards


@dataclass
class Scene:
    # abertura | foto | encerramento (photos), or a card: destaques, medidas, conteudo, garantia, …
    kind: str
    foto: FotoAprovada | None = None
    lines: list[str] = field(default_factory=list)
    priority: int = 0  # 0 = always kept; higher numbers are dropped first
    clips: list[Clip] = field(default_factory=list)
    start: float = 0.0  # in the final timeline (transitions overlap neighbours)
    duration: float = 0.0

    @property
    def is_photo(self) -> bool:
        return self.kind in PHOTO_SCENES


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, cut between words, without a trailing comma or stop."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text.rstrip(" .;,:")
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    return cut.rstrip(" .;,:")


def sentences(text: str, count: int, limit: int) -> list[str]:
    """The first `count` sentences of a text, each shortened to `limit`, each ending in a stop."""
    parts = [p for p in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if p.strip()]
    return [_stop(shorten(p, limit)) for p in parts[:count] if shorten(p, limit)]


def _stop(text: str) -> str:
    return text if text.endswith(("!", "?", ".")) else text + "."


def intro_line(ficha: dict) -> str:
    marca = f", da {shorten(ficha['marca'], 40)}" if ficha.get("marca") else ""
    return _stop(f"Conheça {shorten(ficha['nome'], 90)}{marca}")


CLOSING = "Confira no anúncio."


def attribute_lines(ficha: dict, count: int) -> list[str]:
    # Brand is said in the opening; model codes read aloud help nobody.
    rows = [(n, v) for n, v in attribute_rows(ficha) if n not in ("Marca", "Modelo")]
    return [_stop(f"{shorten(n, 40)}: {shorten(v, 70)}") for n, v in rows[:count]]


def measure_lines(ficha: dict) -> list[str]:
    entries = dimension_entries(ficha)
    parts = [f"{entries[k]} de {k}" for k in ("largura", "altura", "profundidade") if k in entries]
    if not parts:
        return []
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " e " + parts[-1]
    lines = [_stop(f"Medidas: {said}")]
    if "peso" in entries:
        lines.append(_stop(f"Peso: {entries['peso']}"))
    return lines


def warranty_lines(ficha: dict) -> list[str]:
    return [_stop(f"Garantia: {shorten(ficha['garantia'], 110)}")]


def proof_lines(ficha: dict, detailed: bool) -> list[str]:
    """The rating (with the number of ratings, units sold and the best review when detailed)."""
    proof = social_proof(ficha)
    lines = []
    if proof["media"] is not None:
        count = f", em {number(proof['total'])} avaliações" if proof["total"] and detailed else ""
        lines.append(f"Nota média {rating(proof['media'])} de 5{count}.")
    if proof["vendidos"] and (detailed or not lines):
        lines.append(f"{number(proof['vendidos'])} unidades vendidas.")
    reviews = [a for a in ficha.get("avaliacoes") or [] if (a.get("texto") or "").strip() and a["nota"] >= 4]
    if detailed and reviews:
        best = max(reviews, key=lambda a: (a["nota"], a.get("data") or ""))
        lines.append(f"Quem comprou diz: {_stop(shorten(best['texto'], 100))}")
    return lines


def content_lines(ficha: dict) -> list[str]:
    items = ficha.get("composicaoOferta") or []
    said = [f"{number(i['quantidade'])} {shorten(i['item'], 50).lower()}" for i in items[:4]]
    if len(items) > 4:
        said.append(f"mais {len(items) - 4} itens")
    text = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " e " + said[-1]
    return [_stop(f"Na caixa: {text}")]


def question_lines(ficha: dict) -> list[str]:
    first = ficha["perguntas"][0]
    question = shorten(first["pergunta"], 100)
    return [question if question.endswith("?") else question + "?", _stop(shorten(first["resposta"], 120))]


def apresentacao(ficha: dict, fotos: list[FotoAprovada]) -> list[Scene]:
    """About 20 seconds: opening, a second photo with the description, highlights, rating,
    warranty, a third photo with the measurements, closing (as many as fit, by priority)."""
    photos = ordered_fotos(fotos)
    description = sentences(ficha.get("descricao") or "", 1, 90)
    scenes = [Scene("abertura", photos[0], [intro_line(ficha)])]
    if len(photos) > 1:
        scenes.append(Scene("foto", photos[1], description, priority=3))
    if ficha.get("atributos"):
        scenes.append(Scene("destaques", lines=attribute_lines(ficha, 2), priority=1))
    if proof_lines(ficha, detailed=False):
        scenes.append(Scene("avaliacoes", lines=proof_lines(ficha, detailed=False), priority=2))
    if (ficha.get("garantia") or "").strip():
        scenes.append(Scene("garantia", lines=warranty_lines(ficha), priority=4))
    if len(photos) > 2:
        scenes.append(Scene("foto", photos[2], measure_lines(ficha)[:1], priority=5))
    scenes.append(Scene("encerramento", photos[0], [CLOSING]))
    return scenes


def cinepremium(ficha: dict, fotos: list[FotoAprovada], max_photos: int) -> list[Scene]:
    """Every card the ficha supports, interleaved with up to `max_photos` photos."""
    photos = ordered_fotos(fotos)[:max_photos]
    description = sentences(ficha.get("descricao") or "", 2, 130)
    cards: list[Scene] = []
    if ficha.get("atributos"):
        cards.append(Scene("destaques", lines=attribute_lines(ficha, 3), priority=1))
    if measure_lines(ficha):
        cards.append(Scene("medidas", lines=measure_lines(ficha), priority=7))
    if ficha.get("composicaoOferta"):
        cards.append(Scene("conteudo", lines=content_lines(ficha), priority=8))
    if (ficha.get("garantia") or "").strip():
        cards.append(Scene("garantia", lines=warranty_lines(ficha), priority=4))
    if proof_lines(ficha, detailed=True):
        cards.append(Scene("avaliacoes", lines=proof_lines(ficha, detailed=True), priority=3))
    if ficha.get("perguntas"):
        cards.append(Scene("perguntas", lines=question_lines(ficha), priority=9))
    # Photos are what CinePremium is bought for: silent ones go only after the optional cards.
    middle = [
        Scene("foto", foto, description[i : i + 1], priority=2 if i < len(description) else 5)
        for i, foto in enumerate(photos[1:])
    ]
    scenes = [Scene("abertura", photos[0], [intro_line(ficha)])]
    # Alternate photo and card while both last, then whatever remains.
    while middle or cards:
        if middle:
            scenes.append(middle.pop(0))
        if cards:
            scenes.append(cards.pop(0))
    scenes.append(Scene("encerramento", photos[0], [CLOSING]))
    return scenes
