"""Galleries: square marketplace images composed from the ficha and its approved photos.

The gallery of N images is always the first N entries of `available_kinds`, so a bigger gallery
only adds images to a smaller one, and the quality check can tell from the same function how many
images a ficha supports."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from graphql_api.geracao.render import style
from graphql_api.geracao.render.cards import SUPPORTS, Context, compose
from graphql_api.geracao.render.types import (
    OUTPUT_ERRORS,
    Falha,
    FotoAprovada,
    GalleryResult,
    OutputError,
    RenderedImage,
    RenderError,
    check_ambiente,
    ordered_fotos,
)
from graphql_api.geracao.render.watermark import apply_watermark

SIDE = {"producao": 1200, "teste": 600}
MAX_IMAGES = 12  # no marketplace takes more images per listing
INFO_KINDS = ("destaques", "medidas", "conteudo", "garantia", "avaliacoes", "perguntas")
JPEG = {"quality": 90, "subsampling": 0}  # 4:4:4 keeps small text crisp
WORKERS = 2  # the machines have two cores; Pillow releases the GIL while resizing and encoding


@dataclass(frozen=True, slots=True)
class PlannedImage:
    posicao: int
    kind: str
    foto: FotoAprovada | None  # the photo drawn as the image (principal, angulo)


def available_kinds(ficha: dict, fotos: list[FotoAprovada]) -> list[str]:
    """The image kinds this ficha and these photos support, in gallery order (at most 12):

    1. `principal`  — the product cut out on pure white, from the first photo in gallery order
       whose product can be cut out (needs at least one photo; without photos no gallery can be
       made and the list is empty);
    2. `angulo`     — the next photo, when there is one;
    3. `destaques`  — marca, modelo and atributos beside the product (needs ≥ 1 atributo);
    4. `medidas`    — the product with arrows for largura/altura, profundidade and weight below
       (needs at least one of largura, altura, profundidade);
    5. `conteudo`   — what is in the box, from composicaoOferta (needs ≥ 1 item);
    6. `garantia`   — the warranty text (needs garantia);
    7. `avaliacoes` — average rating, stars, counts and the best reviews (needs
       provaSocial.notaMedia or vendidos, or ≥ 1 avaliacao);
    8. `perguntas`  — questions and answers (needs ≥ 1 pergunta);
    9. `angulo`     — one more for each further photo, in ordem.
    """
    if not fotos:
        return []
    extra_photos = len(fotos) - 1
    kinds = ["principal"] + ["angulo"] * min(extra_photos, 1)
    kinds += [kind for kind in INFO_KINDS if SUPPORTS[kind](ficha)]
    kinds += ["angulo"] * max(extra_photos - 1, 0)
    return kinds[:MAX_IMAGES]


def plan_gallery(
    ficha: dict, fotos: list[FotoAprovada], quantidade: int, principal: FotoAprovada | None = None
) -> list[PlannedImage]:
    """The first `quantidade` images: `principal` made from `principal` (default: the principal
    photo), each `angulo` bound to the next of the other photos by ordem. The count never depends
    on which photo makes the main image."""
    kinds = available_kinds(ficha, fotos)
    if not 1 <= quantidade <= len(kinds):
        raise ValueError(f"quantidade must be between 1 and {len(kinds)} for this ficha, not {quantidade}")
    ordered = ordered_fotos(fotos)
    main = principal or ordered[0]
    angles = iter([f for f in ordered if f != main])
    plan = []
    for posicao, kind in enumerate(kinds[:quantidade], start=1):
        foto = main if kind == "principal" else next(angles) if kind == "angulo" else None
        plan.append(PlannedImage(posicao, kind, foto))
    return plan


def _main_photo(ctx: Context) -> FotoAprovada:
    """The first photo, in gallery order, whose product can be cut out; when none can (or the
    principal photo cannot be read), the principal photo, whose image then fails and says why."""
    try:
        return ctx.produto() or ctx.principal
    except OUTPUT_ERRORS:
        return ctx.principal


def render_gallery(
    ficha: dict, fotos: list[FotoAprovada], quantidade: int, ambiente: str, out_dir: Path
) -> GalleryResult:
    """Render `quantidade` square JPEGs into `out_dir` (galeria-01-principal.jpg, …):
    1200×1200 in producao; 600×600 with the AMOSTRA watermark in teste. An image that cannot be
    made (its photo is unreadable; no photo lets the product be cut out for the main image) is
    listed in `falhas` and the others are delivered; when none can be made, RenderError. Each
    image's `notes` say what it compromised (backdrop kept, product enlarged, main image made from
    another photo)."""
    check_ambiente(ambiente)
    style.check_fonts()
    plan = plan_gallery(ficha, fotos, quantidade)
    side = SIDE[ambiente]
    out_dir.mkdir(parents=True, exist_ok=True)
    ctx = Context(ficha, fotos, max_side=round(side * 1.5), producao=SIDE["producao"] / side)

    def render(item: PlannedImage) -> RenderedImage | Falha:
        started = time.perf_counter()
        try:
            canvas = compose(item.kind, ctx, (side, side), item.foto)
            image = apply_watermark(canvas.image) if ambiente == "teste" else canvas.image
            path = out_dir / f"galeria-{item.posicao:02d}-{item.kind}.jpg"
            image.save(path, "JPEG", **JPEG)
        except OUTPUT_ERRORS as exc:
            erro = str(exc) if type(exc) is OutputError else f"{type(exc).__name__}: {exc}"
            return Falha(f"galeria-{item.posicao:02d}-{item.kind}", erro)
        return RenderedImage(
            posicao=item.posicao,
            kind=item.kind,
            path=path,
            largura=side,
            altura=side,
            foto_ordem=item.foto.ordem if item.foto else None,
            layouts=canvas.layouts,
            notes=canvas.notes,
            seconds=time.perf_counter() - started,
        )

    with ThreadPoolExecutor(WORKERS) as pool:
        # Photos first (each decoded and cut out once), so two images never do it twice.
        ctx.warm(pool, [ctx.principal] + [item.foto for item in plan if item.foto])
        plan = plan_gallery(ficha, fotos, quantidade, _main_photo(ctx))
        ctx.warm(pool, [item.foto for item in plan if item.foto])  # a main image from another photo
        outputs = list(pool.map(render, plan))
    imagens = [o for o in outputs if isinstance(o, RenderedImage)]
    falhas = [o for o in outputs if isinstance(o, Falha)]
    if not imagens:
        raise RenderError(falhas)
    return GalleryResult(ambiente=ambiente, imagens=imagens, falhas=falhas)
