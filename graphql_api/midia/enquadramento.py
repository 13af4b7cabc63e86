"""How a product is framed on a main image, shared by the renderers (which frame it) and the
quality check (which warns when the photo cannot give it enough pixels)."""

from __future__ import annotations

# The check and the renderers cut the product out of the photo at this size, so that their verdicts
# (separable or not, the product's size) agree; the confidence's thresholds were set there too.
LADO_RECORTE = 1000
CONFIANCA_MINIMA = 0.9  # below it the mask is not trusted to make a main image

PREENCHIMENTO = 0.85  # the product's long side, as a share of the main image's side
TOLERANCIA_PREENCHIMENTO = 0.03  # what the tests accept around PREENCHIMENTO
LADO_PRINCIPAL = 1200  # the production main image's side
AMPLIACAO_TOLERADA = 1.25  # enlarging the product more than this is noted on the image
AMPLIACAO_MAXIMA = 1.5  # ... and more than this is a pendencia of the check


def lado_necessario(lado_imagem: int = LADO_PRINCIPAL) -> int:
    """The product's long side, in pixels, on a main image of that side."""
    return round(lado_imagem * PREENCHIMENTO)


def ampliacao(lado_produto: int, lado_imagem: int = LADO_PRINCIPAL) -> float:
    """How much the product's own pixels are enlarged to fill the main image (1.0 = not at all)."""
    return lado_necessario(lado_imagem) / max(1, lado_produto)
