"""Test material for the renderers: drawn product photos and fichas from sparse to extreme.

Also used by bench/render_*.py and scripts/render_samples.py."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from graphql_api.geracao.render.types import FotoAprovada
from graphql_api.produto.schemas import Ficha

# (backdrop, body colour, horizontal shift, tilt, zoom): different "angles" of one bottle
_SHOTS = [
    ((247, 247, 245), (28, 92, 140), 0.0, 0.0, 1.0),
    ((232, 234, 238), (28, 92, 140), -0.12, -8.0, 0.9),
    ((250, 250, 250), (28, 92, 140), 0.1, 6.0, 1.15),
    (None, (28, 92, 140), 0.0, 0.0, 0.8),  # lifestyle: a wooden table, not uniform
    ((245, 243, 238), (160, 40, 48), 0.05, 0.0, 1.0),
    ((247, 247, 245), (40, 120, 80), -0.05, 3.0, 1.0),
    ((240, 240, 240), (60, 60, 64), 0.0, -4.0, 0.95),
    ((247, 247, 245), (200, 120, 30), 0.08, 0.0, 1.05),
]


def _wood(size: tuple[int, int]) -> Image.Image:
    img = Image.new("RGB", size)
    draw = ImageDraw.Draw(img)
    for y in range(size[1]):
        grain = 18 * math.sin(y / 9.0) + 10 * math.sin(y / 23.0)
        draw.line([(0, y), (size[0], y)], fill=(int(150 + grain), int(104 + grain * 0.7), int(62 + grain * 0.4)))
    return img


def draw_bottle(size: tuple[int, int], backdrop, body, shift: float, tilt: float, zoom: float) -> Image.Image:
    """A stainless thermal bottle with a shadow: enough shape and shading to test trimming."""
    width, height = size
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    cx, cy = width * (0.5 + shift), height * 0.52
    bw, bh = width * 0.22 * zoom, height * 0.62 * zoom
    left, top = cx - bw / 2, cy - bh / 2
    for i in range(int(bw)):  # cylindrical shading
        t = i / bw
        shade = 0.45 + 0.55 * math.sin(math.pi * t) ** 0.7
        colour = tuple(min(255, int(c * shade + 60 * max(0.0, 1 - abs(t - 0.3) * 8))) for c in body)
        draw.line([(left + i, top + bw * 0.18), (left + i, top + bh)], fill=colour + (255,))
    draw.rounded_rectangle(
        [left, top + bh - bw * 0.12, left + bw, top + bh + bw * 0.05],
        radius=bw * 0.08,
        fill=tuple(int(c * 0.6) for c in body) + (255,),
    )
    cap = [left + bw * 0.12, top - bw * 0.2, left + bw * 0.88, top + bw * 0.22]
    draw.rounded_rectangle(cap, radius=bw * 0.1, fill=(70, 72, 76, 255))
    draw.rectangle([left + bw * 0.2, top + bh * 0.42, left + bw * 0.8, top + bh * 0.58], fill=(245, 245, 240, 255))
    layer = layer.rotate(tilt, resample=Image.BICUBIC, center=(cx, cy))
    base = _wood(size) if backdrop is None else Image.new("RGB", size, backdrop)
    shadow = Image.new("L", size, 0)
    ImageDraw.Draw(shadow).ellipse(
        [left - bw * 0.1, top + bh - bw * 0.02, left + bw * 1.3, top + bh + bw * 0.16], fill=110
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(width / 120))
    base.paste((120, 120, 120), mask=shadow)
    base.paste(layer, mask=layer.getchannel("A"))
    return base


def make_fotos(folder: Path, count: int = 6, size: tuple[int, int] = (1600, 1600)) -> list[FotoAprovada]:
    folder.mkdir(parents=True, exist_ok=True)
    fotos = []
    for i in range(count):
        path = folder / f"foto-{i + 1}.jpg"
        if not path.exists():
            draw_bottle(size, *_SHOTS[i % len(_SHOTS)]).save(path, quality=90)
        fotos.append(FotoAprovada(path=path, ordem=i + 1, principal=(i == 0), largura=size[0], altura=size[1]))
    return fotos


def _validated(dados: dict) -> dict:
    return Ficha.model_validate(dados).normalised()


def rich_ficha() -> dict:
    return _validated(
        {
            "nome": "Garrafa Térmica Aço Inox Aurora 750 ml",
            "descricao": "Garrafa térmica de parede dupla a vácuo que mantém bebidas quentes por 12 horas e geladas por 24 horas. Tampa rosqueável antivazamento.",
            "marca": "Casa Boa",
            "modelo": "AUR-750",
            "categoria": {"nome": "Garrafas térmicas"},
            "atributos": [
                {"nome": "Capacidade", "valor": "750 ml"},
                {"nome": "Material", "valor": "Aço inoxidável 304"},
                {"nome": "Conservação", "valor": "Quente por 12 h, gelado por 24 h"},
                {"nome": "Cor", "valor": "Azul-petróleo"},
                {"nome": "Livre de BPA", "valor": "Sim"},
                {"nome": "Lava-louças", "valor": "Só a tampa"},
            ],
            "dimensoes": {
                "largura": 7.5,
                "altura": 27,
                "profundidade": 7.5,
                "unidade": "cm",
                "pesoLiquido": 380,
                "unidadePeso": "g",
            },
            "composicaoOferta": [
                {"item": "Garrafa térmica Aurora", "quantidade": 1},
                {"item": "Tampa extra com alça", "quantidade": 1},
                {"item": "Escova de limpeza", "quantidade": 1},
                {"item": "Adesivos decorativos", "quantidade": 4},
            ],
            "garantia": "12 meses contra defeitos de fabricação",
            "avaliacoes": [
                {"nota": 5, "texto": "Mantém o café quente o dia inteiro. Ótima qualidade!", "data": "2025-03-02"},
                {"nota": 4, "texto": "Muito boa, só achei a tampa um pouco dura no começo.", "data": "2025-02-11"},
                {"nota": 5, "texto": "Linda e não vaza na mochila.", "data": "2025-01-20"},
            ],
            "perguntas": [
                {
                    "pergunta": "Pode ir ao micro-ondas?",
                    "resposta": "Não: é de aço inox. Aqueça a bebida antes de colocar.",
                },
                {
                    "pergunta": "Serve para bebidas gaseificadas?",
                    "resposta": "Não recomendamos, a pressão pode forçar a tampa.",
                },
                {"pergunta": "A tampa extra vem junto?", "resposta": "Sim, a tampa com alça acompanha o produto."},
            ],
            "provaSocial": {"totalAvaliacoes": 1287, "notaMedia": 4.8, "vendidos": 5400},
        }
    )


def sparse_ficha() -> dict:
    return _validated({"nome": "Garrafa Térmica"})


def extreme_ficha() -> dict:
    """Every text at its limit: the layout must never overflow."""
    long_word = "Superextraordinariamente" * 3
    return _validated(
        {
            "nome": ("Garrafa Térmica Ação Ímpar Ção " * 10)[:200],
            "descricao": ("Descrição longa com acentuação — ÁÉÍÓÚ ÂÊÔ ÃÕ Ç. " * 120)[:5000],
            "marca": "M" * 100,
            "modelo": "W" * 100,
            "atributos": [
                {"nome": f"Atributo {i} " + "N" * 80, "valor": ((long_word + " valor ") * 10)[:500]} for i in range(100)
            ],
            "dimensoes": {
                "largura": 999999.99,
                "altura": 1000000,
                "profundidade": 0.001,
                "unidade": "mm",
                "pesoLiquido": 1000000,
                "pesoBruto": 1000000,
                "unidadePeso": "kg",
            },
            "composicaoOferta": [
                {"item": ("Item com nome muito comprido " * 10)[:200], "quantidade": 10000} for _ in range(50)
            ],
            "garantia": ("Garantia estendida de fábrica com cobertura total " * 12)[:500],
            "avaliacoes": [{"nota": 1 + i % 5, "texto": ("Avaliação enorme " * 150)[:2000]} for i in range(50)],
            "perguntas": [
                {"pergunta": ("Pergunta " * 60)[:500], "resposta": ("Resposta " * 250)[:2000]} for _ in range(50)
            ],
            "provaSocial": {"totalAvaliacoes": 2_000_000_000, "notaMedia": 5, "vendidos": 9_999_999_999},
        }
    )
