"""Media renderers: pure functions from a stored ficha and local photo files to media files and
their metadata. No database, no HTTP: the generation service and its tasks call these.

    available_kinds(ficha, fotos)                          -> ordered image kinds (galleries)
    render_gallery(ficha, fotos, quantidade, ambiente, out_dir)  -> GalleryResult
    render_video(ficha, fotos, tipo, avatar, ambiente, out_dir)  -> VideoResult
    apply_edits(source, pedido, ambiente, out_path) -> RenderedImage  (pedido: schemas.parse_edicao)

`ambiente` is "teste" (reduced size, AMOSTRA watermark) or "producao". docs/midia.md describes
what each renders."""

from graphql_api.geracao.render.edits import FORMATS, apply_edits
from graphql_api.geracao.render.gallery import available_kinds, plan_gallery, render_gallery
from graphql_api.geracao.render.types import (
    Fala,
    Falha,
    FotoAprovada,
    GalleryResult,
    RenderedImage,
    RenderError,
    VideoFile,
    VideoResult,
)
from graphql_api.geracao.render.video import (
    AVATARES,
    CINEPREMIUM_MIN_FOTOS,
    ROTULOS_AVATAR,
    TIPOS,
    VideoError,
    render_video,
)

__all__ = [
    "AVATARES",
    "ROTULOS_AVATAR",
    "CINEPREMIUM_MIN_FOTOS",
    "FORMATS",
    "TIPOS",
    "Fala",
    "Falha",
    "FotoAprovada",
    "RenderError",
    "GalleryResult",
    "RenderedImage",
    "VideoError",
    "VideoFile",
    "VideoResult",
    "apply_edits",
    "available_kinds",
    "plan_gallery",
    "render_gallery",
    "render_video",
]
