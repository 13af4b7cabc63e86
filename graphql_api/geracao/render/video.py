"""Videos: the product's photos with motion, text cards from the ficha and narration in Brazilian
Portuguese, as MP4 (H.264 + AAC, faststart) with a WebVTT subtitle file.

Pillow draws every still (photo slides at a supersampled size, cards, the title panel, captions,
the watermark); one ffmpeg run per output format animates the photos (zoompan with eased zoom and
pan), joins the scenes with crossfades, lays the overlays and encodes picture and narration."""

from __future__ import annotations

import math
import shutil
import tempfile
import time
import wave
from array import array
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image

from graphql_api.geracao.render import media, speech, storyboard, style
from graphql_api.geracao.render import photo as photos
from graphql_api.geracao.render.cards import Context, compose
from graphql_api.geracao.render.storyboard import Scene
from graphql_api.geracao.render.subtitles import Cue, cues_for, write_webvtt
from graphql_api.geracao.render.text import Box, Canvas, TextLayout, layout_text
from graphql_api.geracao.render.types import (
    OUTPUT_ERRORS,
    Fala,
    Falha,
    FotoAprovada,
    RenderError,
    VideoFile,
    VideoResult,
    check_ambiente,
)
from graphql_api.geracao.render.watermark import watermark_layer

TIPOS = ("apresentacao", "cinepremium")
AVATARES = ("automatico", "legenda", "narrador", "narradora")
# How a person reads each one (the portal's choice; the API takes the values above).
ROTULOS_AVATAR = {
    "automatico": "Automático: legendas na imagem quando cabem, senão narrador",
    "legenda": "Narrador, com legendas na imagem",
    "narrador": "Narrador (legendas só no arquivo WebVTT)",
    "narradora": "Narradora (legendas só no arquivo WebVTT)",
}
CINEPREMIUM_MIN_FOTOS = 5  # fewer photos: the quality check reports CINEPREMIUM_FOTOS_INSUFICIENTES


@dataclass(frozen=True, slots=True)
class VideoSpec:
    formats: dict[
        str, tuple[tuple[Literal["horizontal", "vertical"], tuple[int, int]], ...]
    ]  # ambiente -> (formato, size) …
    fps: int
    crossfade: float  # seconds
    supersample: float  # photo slides are drawn this much larger than the frame: smoother motion
    zoom: float  # how far the camera moves in (1 + zoom at the closest)
    crf: int
    min_photos: int
    max_photos: int
    interlude: float  # length of a photo scene without speech
    max_seconds: float  # scenes are dropped, least important first, to stay under this


SPECS = {
    "apresentacao": VideoSpec(
        formats={"producao": (("horizontal", (1280, 720)),), "teste": (("horizontal", (640, 360)),)},
        fps=30,
        crossfade=0.5,
        supersample=1.5,
        zoom=0.08,
        crf=23,
        min_photos=1,
        max_photos=3,
        interlude=2.5,
        max_seconds=25,
    ),
    "cinepremium": VideoSpec(
        formats={
            "producao": (("horizontal", (1920, 1080)), ("vertical", (1080, 1920))),
            "teste": (("horizontal", (960, 540)), ("vertical", (540, 960))),
        },
        fps=30,
        crossfade=0.9,
        supersample=2.0,
        zoom=0.12,
        crf=20,
        min_photos=CINEPREMIUM_MIN_FOTOS,
        max_photos=8,
        interlude=3.0,
        max_seconds=55,
    ),
}


@dataclass(frozen=True, slots=True)
class AvatarStyle:
    voice: str  # espeak-ng voice
    burn_captions: bool


# There are no human presenters: an avatar is the narration's voice and how captions are shown.
AVATAR_STYLES = {
    "legenda": AvatarStyle("pt-br", True),  # male voice, captions burned into the picture
    "narrador": AvatarStyle("pt-br", False),  # male voice, captions only in the WebVTT file
    "narradora": AvatarStyle("pt-br+f3", False),  # female variant of the same voice
}
AUTOMATICO_ORDER = ("legenda", "narrador")  # muted autoplay is the norm in marketplace feeds

# Timing of speech inside a scene (seconds)
FIRST_LEAD = 0.5  # before the first sentence of the video
LEAD = 0.15  # after a transition ends, before the scene's first sentence
BETWEEN = 0.25  # between two sentences of one scene
TAIL = 0.35  # after a scene's last sentence, before the next transition
END_HOLD = 0.8  # the closing shot stays on after the last word
FADE = 0.5  # fade from black at the start, to black at the end
CARD_SCALE = 1.3  # cards are read in passing on a small player: larger type than gallery images


class VideoError(ValueError):
    """A video that cannot be made from this material; `codigo` names the reason."""

    def __init__(self, codigo: str, message: str):
        super().__init__(message)
        self.codigo = codigo

    def __reduce__(self):  # rebuilt with its codigo when it comes back from a render process
        return type(self), (self.codigo, str(self))


# -- layout of a frame ------------------------------------------------------------------------------


def _frac_box(size: tuple[int, int], x0: float, y0: float, x1: float, y1: float) -> Box:
    w, h = size
    return Box(round(w * x0), round(h * y0), round(w * x1), round(h * y1))


def is_vertical(size: tuple[int, int]) -> bool:
    return size[1] > size[0]


def caption_zone(size: tuple[int, int]) -> Box:
    """Where burned captions go: low in a horizontal frame; above the feed controls that cover
    the bottom fifth of a vertical one."""
    if is_vertical(size):
        return _frac_box(size, 0.05, 0.76, 0.95, 0.88)
    return _frac_box(size, 0.06, 0.81, 0.94, 0.96)


def product_area(size: tuple[int, int], titled: bool) -> Box:
    """Where the product sits on a photo slide; titled scenes leave room for the name panel."""
    if is_vertical(size):
        return _frac_box(size, 0.08, 0.28, 0.92, 0.74) if titled else _frac_box(size, 0.06, 0.1, 0.94, 0.74)
    return _frac_box(size, 0.5, 0.07, 0.95, 0.8) if titled else _frac_box(size, 0.08, 0.06, 0.92, 0.8)


def scene_area(size: tuple[int, int], titled: bool) -> Box:
    """Where the product of a scene (a photo covering the frame) must sit whole: clear of the
    name panel and of the captions."""
    if titled:
        return product_area(size, titled)
    return _frac_box(size, 0.03, 0.03, 0.97, 0.74 if is_vertical(size) else 0.8)


def title_area(size: tuple[int, int]) -> Box:
    if is_vertical(size):
        return _frac_box(size, 0.06, 0.06, 0.94, 0.25)
    return _frac_box(size, 0.05, 0.2, 0.47, 0.64)


@lru_cache(maxsize=8)
def _backdrop(size: tuple[int, int]) -> Image.Image:
    """A soft light gradient behind keyed products: studio-like, never flat grey."""
    ramp = Image.linear_gradient("L").resize(size, Image.Resampling.BILINEAR)
    return Image.composite(
        Image.new("RGB", size, style.BACKDROP_BOTTOM), Image.new("RGB", size, style.BACKDROP_TOP), ramp
    )


FRAME_MARGIN = 0.06  # of the product's size, kept around it when a scene is framed on it


@dataclass(frozen=True, slots=True)
class Slide:
    """The still a photo scene moves over, and the part of it the camera keeps in view."""

    image: Image.Image
    keep: tuple[float, float, float, float]  # the product's box with a margin, in fractions of the slide
    placement: photos.Placement  # where the prepared photo's pixels landed on it


def photo_slide(ctx: Context, foto: FotoAprovada, frame: tuple[int, int], scale: float, titled: bool) -> Slide:
    """The still a photo scene moves over, `scale` times the frame size. A scene (a photo whose
    backdrop is not plain) covers the frame, framed on the product's mask so the product sits
    whole inside the product area; a product on a plain backdrop is cut out onto the studio
    backdrop; a photo whose product cannot be told apart is shown whole. Nothing crops the
    product: the camera keeps `keep` in view."""
    size = (_even(frame[0] * scale), _even(frame[1] * scale))
    prepared = ctx.photo(foto)

    def scaled(box: Box) -> Box:
        return Box(*(round(v * scale) for v in box.as_tuple()))

    at = None
    if prepared.separavel and not prepared.fundo_uniforme:
        at = photos.framed_cover(prepared, size, scaled(scene_area(frame, titled)), FRAME_MARGIN)
    if at is not None:
        slide = Image.new("RGB", size, style.WHITE)
        photos.draw(slide, prepared, at, cut=False)
    else:
        slide = _backdrop(size).copy()
        at = photos.fit(prepared, scaled(product_area(frame, titled)))
        photos.contact_shadow(slide, prepared, at.map(prepared.caixa))
        photos.draw(slide, prepared, at)
    landed = at.map(prepared.caixa)
    grow_x, grow_y = landed.width * FRAME_MARGIN / 2, landed.height * FRAME_MARGIN / 2
    keep = (
        max(0.0, (landed.x0 - grow_x) / size[0]),
        max(0.0, (landed.y0 - grow_y) / size[1]),
        min(1.0, (landed.x1 + grow_x) / size[0]),
        min(1.0, (landed.y1 + grow_y) / size[1]),
    )
    return Slide(slide, keep, at)


def title_panel(frame: tuple[int, int], title: str, subtitle: str) -> tuple[Image.Image, Box, list[TextLayout]]:
    """The name panel of the opening and closing scenes (RGBA, laid over the moving photo)."""
    area = title_area(frame)
    canvas = Canvas(
        (area.width, area.height),
        background=(0, 0, 0, 0),
        mode="RGBA",
        unit=style.text_unit(frame),
        legible=style.legible_size(frame[0]),
    )
    canvas.panel(canvas.box, fill=style.NAVY + (235,))
    bar = canvas.px(14)
    canvas.draw.rectangle([0, canvas.px(24), bar, area.height - canvas.px(24)], fill=style.ACCENT)
    inner = canvas.box.inset(canvas.px(40), canvas.px(26))
    inner = Box(inner.x0 + bar, inner.y0, inner.x1, inner.y1)
    name_box, sub_box = inner.split(0.72, canvas.px(10), vertical=True)
    canvas.text(
        title, name_box, fill=style.WHITE, size=(68, style.SMALLEST_TEXT), bold=True, max_lines=3, valign="bottom"
    )
    canvas.text(subtitle, sub_box, fill=style.ACCENT, size=(40, style.SMALLEST_TEXT), max_lines=1)
    return canvas.image, area, canvas.layouts


def caption_image(frame: tuple[int, int], text: str) -> tuple[Image.Image, Box, TextLayout]:
    """One burned caption: white on a dark translucent panel, at most two lines."""
    zone = caption_zone(frame)
    canvas = Canvas((zone.width, zone.height), background=(0, 0, 0, 0), mode="RGBA", unit=style.unit(frame))
    pad = canvas.px(22)
    layout = layout_text(
        text, canvas.box.inset(pad, pad // 2), size=canvas.sizes((50, 30)), max_lines=2, align="center", valign="bottom"
    )
    if layout.ink is not None:
        ink = layout.ink
        canvas.panel(
            Box(
                max(0, ink.x0 - pad),
                max(0, ink.y0 - pad // 2),
                min(zone.width, ink.x1 + pad),
                min(zone.height, ink.y1 + pad // 2),
            ),
            fill=(10, 16, 24, 190),
            radius=14,
        )
    canvas.draw_layout(layout, style.WHITE)
    return canvas.image, zone, layout


# -- timeline ---------------------------------------------------------------------------------------


def _even(value: float) -> int:
    return max(2, int(round(value / 2)) * 2)


def _frames(seconds: float, fps: int) -> int:
    return max(1, math.ceil(round(seconds * fps, 6)))


def plan_timeline(scenes: list[Scene], spec: VideoSpec) -> tuple[float, list[tuple[float, speech.Clip]]]:
    """Give each scene its start and length (whole frames) from its sentences; returns the total
    length and where each sentence starts."""
    xf = _frames(spec.crossfade, spec.fps) / spec.fps
    at, placements = 0.0, []
    for i, scene in enumerate(scenes):
        lead = FIRST_LEAD if i == 0 else xf + LEAD
        if scene.clips:
            spoken = sum(c.seconds for c in scene.clips) + BETWEEN * (len(scene.clips) - 1)
            length = lead + spoken + TAIL
        else:
            length = spec.interlude
        if i == len(scenes) - 1:
            length += END_HOLD
        length = max(length, 2 * xf + 0.6)
        scene.start, scene.duration = at, _frames(length, spec.fps) / spec.fps
        clip_at = at + lead
        for clip in scene.clips:
            placements.append((clip_at, clip))
            clip_at += clip.seconds + BETWEEN
        at += scene.duration - xf
    last = scenes[-1]
    return round(last.start + last.duration, 6), placements


def fit_length(scenes: list[Scene], spec: VideoSpec) -> list[Scene]:
    """Drop the least important scenes until the video fits the type's length."""
    scenes = list(scenes)
    while plan_timeline(scenes, spec)[0] > spec.max_seconds:
        droppable = [s for s in scenes if s.priority > 0]
        if not droppable:
            break
        scenes.remove(max(droppable, key=lambda s: s.priority))
    return scenes


# -- quality gates that steer avatar "automatico" -------------------------------------------------


def narration_ok(clips: list[speech.Clip]) -> bool:
    """Every sentence was synthesised, is audible, and is spoken at a sane pace."""
    for clip in clips:
        if clip.seconds < 0.3:
            return False
        if not 3 <= len(speech.spoken(clip.text)) / clip.seconds <= 30:  # characters per second
            return False
        samples = array("h")
        with wave.open(str(clip.path), "rb") as wav:
            samples.frombytes(wav.readframes(wav.getnframes()))
        if not samples or max(max(samples), -min(samples)) < 1500:
            return False
    return True


def captions_ok(cues: list[Cue], frames: list[tuple[int, int]]) -> bool:
    """Every cue fits in two lines at a readable size in every delivered format."""
    return all(not caption_image(frame, cue.text)[2].truncated for frame in frames for cue in cues)


def resolve_avatar(avatar: str, cues: list[Cue], frames: list[tuple[int, int]]) -> str:
    """`automatico` becomes the first style of AUTOMATICO_ORDER whose gates pass; the others are
    rendered as asked."""
    if avatar != "automatico":
        return avatar
    for name in AUTOMATICO_ORDER:
        if not AVATAR_STYLES[name].burn_captions or captions_ok(cues, frames):
            return name
    return "narrador"


# -- ffmpeg -----------------------------------------------------------------------------------------

_MOTIONS = ("zoom_in", "pan_right", "zoom_out", "pan_left")


@dataclass(frozen=True, slots=True)
class Camera:
    """How a photo scene's view moves over its slide, in fractions of the slide: a zoom scales
    the view about a fixed point (the product's centre, which stays put on screen); a pan slides
    it sideways at a constant zoom. Progress `t` runs from 0 to 1, eased."""

    zoom: tuple[float, float]  # at the start and at the end
    fixed: tuple[float, float] | None  # zooms: the point that stays put
    x: tuple[float, float] = (0.0, 0.0)  # pans: the view's left edge at the start and at the end
    y: float = 0.0  # pans: the view's top edge

    def window(self, t: float) -> tuple[float, float, float, float]:
        z = self.zoom[0] + (self.zoom[1] - self.zoom[0]) * t
        if self.fixed is not None:
            fx, fy = self.fixed
            x0, y0 = fx * (1 - 1 / z), fy * (1 - 1 / z)
        else:
            x0, y0 = self.x[0] + (self.x[1] - self.x[0]) * t, self.y
        return x0, y0, x0 + 1 / z, y0 + 1 / z

    def zoompan(self, frames: int, size: tuple[int, int], fps: int) -> str:
        """The same motion as ffmpeg's zoompan filter."""
        last = max(frames - 1, 1)
        ease = f"(3*pow(on/{last},2)-2*pow(on/{last},3))"  # smoothstep
        z = f"{self.zoom[0]:.6f}+{self.zoom[1] - self.zoom[0]:.6f}*{ease}"
        if self.fixed is not None:
            x, y = f"{self.fixed[0]:.6f}*iw*(1-1/zoom)", f"{self.fixed[1]:.6f}*ih*(1-1/zoom)"
        else:
            x, y = f"iw*({self.x[0]:.6f}+{self.x[1] - self.x[0]:.6f}*{ease})", f"ih*{self.y:.6f}"
        return f"zoompan=z='{z}':x='{x}':y='{y}':d={frames}:s={size[0]}x{size[1]}:fps={fps}"


def camera(motion: str, keep: tuple[float, float, float, float], zoom: float) -> Camera:
    """The motion over a slide that never leaves `keep` (the product) out of view: the zoom is
    held back as far as the product needs."""
    kx0, ky0, kx1, ky1 = keep
    if motion in ("zoom_in", "zoom_out"):
        cx, cy = (kx0 + kx1) / 2, (ky0 + ky1) / 2
        limits = [1 + zoom]  # about (cx, cy), the product grows by z and must stay in [0, 1]
        for c, k0, k1 in ((cx, kx0, kx1), (cy, ky0, ky1)):
            if c > k0:
                limits.append(c / (c - k0))
            if k1 > c:
                limits.append((1 - c) / (k1 - c))
        z = max(1.0, min(limits))
        return Camera((1.0, z) if motion == "zoom_in" else (z, 1.0), (cx, cy))
    z = max(1.0, min(1 + zoom, 1 / max(kx1 - kx0, 1e-6), 1 / max(ky1 - ky0, 1e-6)))
    view = 1 / z
    low, high = max(0.0, kx1 - view), min(1 - view, kx0)  # left edges that keep the product in view
    start, end = low + (high - low) * 0.15, low + (high - low) * 0.85
    y = min(max((ky0 + ky1 - view) / 2, max(0.0, ky1 - view)), min(1 - view, ky0))
    return Camera((z, z), None, (start, end) if motion == "pan_right" else (end, start), y)


@dataclass
class _Inputs:
    args: list[str]
    count: int = 0

    def still(self, path: Path) -> int:
        self.args += ["-i", str(path)]
        self.count += 1
        return self.count - 1

    def looped(self, path: Path, seconds: float, fps: int) -> int:
        self.args += ["-loop", "1", "-framerate", str(fps), "-t", f"{seconds:.4f}", "-i", str(path)]
        self.count += 1
        return self.count - 1


def build_command(
    scenes: list[Scene],
    slides: dict,
    spec: VideoSpec,
    size: tuple[int, int],
    total: float,
    wav: Path,
    out: Path,
) -> list[str]:
    fps, xf = spec.fps, _frames(spec.crossfade, spec.fps) / spec.fps
    inputs = _Inputs([])
    graph: list[str] = []
    photo_index = 0
    for i, scene in enumerate(scenes):
        frames = round(scene.duration * fps)
        tail = f"format=yuv420p,setsar=1,settb=1/{fps},setpts=N[s{i}]"
        if scene.is_photo:
            source = inputs.still(slides[("scene", i)])
            motion = {"abertura": "zoom_in", "encerramento": "zoom_out"}.get(
                scene.kind, _MOTIONS[photo_index % len(_MOTIONS)]
            )
            photo_index += scene.kind == "foto"
            moving = camera(motion, slides[("keep", i)], spec.zoom)
            chain = f"[{source}:v]{moving.zoompan(frames, size, fps)},format=yuv420p"
            if ("title", i) in slides:
                panel, box = slides[("title", i)]
                chain += f"[z{i}];[z{i}][{inputs.still(panel)}:v]overlay={box.x0}:{box.y0},"
            else:
                chain += ","
            graph.append(chain + tail)
        else:
            source = inputs.looped(slides[("scene", i)], scene.duration, fps)
            graph.append(f"[{source}:v]fps={fps},{tail}")
    current = "s0"
    for i, scene in enumerate(scenes[1:], start=1):
        graph.append(f"[{current}][s{i}]xfade=transition=fade:duration={xf:.4f}:offset={scene.start:.4f}[x{i}]")
        current = f"x{i}"
    for j, (path, box, cue) in enumerate(slides.get("captions", [])):
        graph.append(
            f"[{current}][{inputs.still(path)}:v]overlay={box.x0}:{box.y0}:"
            f"enable='between(t,{cue.start:.3f},{cue.end:.3f})'[c{j}]"
        )
        current = f"c{j}"
    if "watermark" in slides:
        graph.append(f"[{current}][{inputs.still(slides['watermark'])}:v]overlay=0:0[wm]")
        current = "wm"
    graph.append(f"[{current}]fade=t=in:st=0:d={FADE},fade=t=out:st={total - FADE:.4f}:d={FADE},format=yuv420p[vout]")
    audio = inputs.still(wav)
    graph.append(f"[{audio}:a]afade=t=out:st={total - FADE:.4f}:d={FADE},aresample=48000[aout]")
    return [
        *inputs.args,
        "-filter_complex",
        ";".join(graph),
        "-map",
        "[vout]",
        "-map",
        "[aout]",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-crf",
        str(spec.crf),
        "-profile:v",
        "high",
        "-pix_fmt",
        "yuv420p",
        "-r",
        str(fps),
        "-g",
        str(fps * 2),
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-ar",
        "48000",
        "-movflags",
        "+faststart",
        "-t",
        f"{total:.4f}",
        "-y",
        str(out),
    ]


# -- the renderer -----------------------------------------------------------------------------------


def check_request(tipo: str, avatar: str, ambiente: str, fotos: list[FotoAprovada]) -> VideoSpec:
    check_ambiente(ambiente)
    if tipo not in SPECS:
        raise ValueError(f"tipo must be one of {TIPOS}, not {tipo!r}")
    if avatar not in AVATARES:
        raise ValueError(f"avatar must be one of {AVATARES}, not {avatar!r}")
    spec = SPECS[tipo]
    if len(fotos) < spec.min_photos:
        codigo = "CINEPREMIUM_FOTOS_INSUFICIENTES" if tipo == "cinepremium" else "FOTOS_INSUFICIENTES"
        raise VideoError(codigo, f"{tipo} needs at least {spec.min_photos} approved photos, got {len(fotos)}")
    return spec


def render_video(
    ficha: dict, fotos: list[FotoAprovada], tipo: str, avatar: str, ambiente: str, out_dir: Path
) -> VideoResult:
    """Render the video(s) of `tipo` into `out_dir`: video-horizontal.mp4 (and video-vertical.mp4
    for cinepremium) and legenda.vtt. Raises VideoError when the material does not allow it; a
    format that fails is listed in `falhas` while the other is delivered (RenderError if none)."""
    started = time.perf_counter()
    spec = check_request(tipo, avatar, ambiente, fotos)
    style.check_fonts()
    out_dir.mkdir(parents=True, exist_ok=True)
    formats = spec.formats[ambiente]
    frames = [size for _, size in formats]
    scenes = (
        storyboard.apresentacao(ficha, fotos)
        if tipo == "apresentacao"
        else storyboard.cinepremium(ficha, fotos, spec.max_photos)
    )
    work = Path(tempfile.mkdtemp(prefix=".render-", dir=out_dir))
    try:
        with ThreadPoolExecutor(2) as pool:
            # Voices differ only for narradora; the chosen voice is known before synthesis.
            voice = AVATAR_STYLES["narradora" if avatar == "narradora" else "narrador"].voice
            jobs = [(scene, line) for scene in scenes for line in scene.lines]
            clips = list(
                pool.map(lambda n: speech.synthesise(jobs[n][1], voice, work / f"fala-{n:02d}.wav"), range(len(jobs)))
            )
            for (scene, _), clip in zip(jobs, clips, strict=False):
                scene.clips.append(clip)
            if not narration_ok(clips):
                raise VideoError("FALA_REPROVADA", "the narration failed its checks (silent or garbled)")
            scenes = fit_length(scenes, spec)
            total, placements = plan_timeline(scenes, spec)
            cues = [cue for at, clip in placements for cue in cues_for(clip.text, at, clip.seconds)]
            chosen = resolve_avatar(avatar, cues, frames)
            avatar_style = AVATAR_STYLES[chosen]
            wav = work / "fala.wav"
            speech.mix(placements, total, wav)
            vtt = out_dir / "legenda.vtt"
            write_webvtt(cues, vtt)

            ctx = Context(
                ficha, fotos, max_side=round(max(max(frames)) * spec.supersample), scale=CARD_SCALE, narrated=True
            )
            ctx.warm(pool, [scene.foto for scene in scenes if scene.foto])
            videos, falhas = [], []
            for formato, size in formats:
                out = out_dir / f"video-{formato}.mp4"
                try:
                    slides = _draw_slides(pool, ctx, scenes, size, spec, avatar_style, cues, ambiente, work / formato)
                    media.run(build_command(scenes, slides, spec, size, total, wav, out))
                except OUTPUT_ERRORS as exc:
                    falhas.append(Falha(f"video-{formato}", f"{type(exc).__name__}: {str(exc)[-500:]}"))
                    continue
                videos.append(VideoFile(formato, out, size[0], size[1], round(total, 3), spec.fps))
            if not videos:
                raise RenderError(falhas)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    spoken = placements[-1][0] + placements[-1][1].seconds - placements[0][0] if placements else 0.0
    fala = Fala(
        texto=" ".join(clip.text for _, clip in placements),
        voz=f"{speech.ENGINE}:{avatar_style.voice}",
        duracao_segundos=round(spoken, 2),
    )
    return VideoResult(
        tipo=tipo,
        avatar=chosen,
        ambiente=ambiente,
        videos=videos,
        fala=fala,
        legenda=vtt,
        legendas_embutidas=avatar_style.burn_captions,
        cenas=[s.kind for s in scenes],
        falhas=falhas,
        seconds=time.perf_counter() - started,
    )


def _draw_slides(
    pool,
    ctx: Context,
    scenes: list[Scene],
    size: tuple[int, int],
    spec: VideoSpec,
    avatar_style: AvatarStyle,
    cues: list[Cue],
    ambiente: str,
    folder: Path,
) -> dict:
    """Every still one format needs, drawn in parallel and written to `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    nome = ctx.ficha["nome"]
    subtitle = {"abertura": ctx.ficha.get("marca") or "", "encerramento": "Confira no anúncio"}

    def scene_still(i: int) -> list[tuple[tuple[str, int], object]]:
        scene = scenes[i]
        path = folder / f"cena-{i:02d}.jpg"
        entries: list[tuple[tuple[str, int], object]] = [(("scene", i), path)]
        if scene.is_photo:
            assert scene.foto is not None  # the storyboard gives every photo scene its photo
            slide = photo_slide(ctx, scene.foto, size, spec.supersample, titled=scene.kind != "foto")
            image = slide.image
            entries.append((("keep", i), slide.keep))
        else:
            image = _card(ctx, scene.kind, size, avatar_style.burn_captions)
        image.save(path, "JPEG", quality=94, subsampling=0)
        if scene.kind in subtitle:
            panel, box, _ = title_panel(size, nome, subtitle[scene.kind])
            panel_path = folder / f"titulo-{i:02d}.png"
            panel.save(panel_path, compress_level=1)
            entries.append((("title", i), (panel_path, box)))
        return entries

    def caption_still(j: int) -> tuple:
        image, box, _ = caption_image(size, cues[j].text)
        path = folder / f"legenda-{j:03d}.png"
        image.save(path, compress_level=1)
        return path, box, cues[j]

    slides: dict = {}
    for entries in pool.map(scene_still, range(len(scenes))):
        slides.update(entries)
    if avatar_style.burn_captions:
        slides["captions"] = list(pool.map(caption_still, range(len(cues))))
    if ambiente == "teste":
        path = folder / "amostra.png"
        watermark_layer(size).save(path, compress_level=1)
        slides["watermark"] = path
    return slides


def card_canvas(ctx: Context, kind: str, size: tuple[int, int], leave_caption_room: bool) -> Canvas:
    """A card as wide as the frame: as tall, or stopping above the caption zone when captions are
    burned in."""
    if not leave_caption_room:
        return compose(kind, ctx, size)
    return compose(kind, ctx, (size[0], caption_zone(size).y0 - round(size[1] * 0.02)))


def _card(ctx: Context, kind: str, size: tuple[int, int], leave_caption_room: bool) -> Image.Image:
    card = card_canvas(ctx, kind, size, leave_caption_room).image
    if card.size == size:
        return card
    frame = Image.new("RGB", size, style.WHITE)
    frame.paste(card, (0, 0))
    return frame
