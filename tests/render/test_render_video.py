"""Videos: real MP4s checked with ffmpeg (codecs, size, duration, loudness, faststart), the
narration and its subtitles, the watermark, CinePremium's rules and the avatar styles."""

import re
import wave
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from graphql_api.geracao.render import media, speech, storyboard, style
from graphql_api.geracao.render.cards import Context
from graphql_api.geracao.render.speech import Clip
from graphql_api.geracao.render.subtitles import MAX_CUE_CHARS, Cue, chunks
from graphql_api.geracao.render.video import (
    CINEPREMIUM_MIN_FOTOS,
    SPECS,
    VideoError,
    camera,
    fit_length,
    narration_ok,
    photo_slide,
    plan_timeline,
    render_video,
    resolve_avatar,
)
from tests.render.cenarios import cenario
from tests.render.helpers import caixa_verdadeira, foto_de, watermark_contrast
from tests.render.samples import rich_ficha, sparse_ficha


def _vtt_cues(path: Path) -> list[tuple[float, float, str]]:
    def seconds(stamp: str) -> float:
        h, m, s = stamp.split(":")
        return int(h) * 3600 + int(m) * 60 + float(s)

    text = path.read_text(encoding="utf-8")
    assert text.startswith("WEBVTT")
    found = re.findall(r"(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(.+)", text)
    return [(seconds(a), seconds(b), line) for a, b, line in found]


def test_apresentacao_teste_is_a_valid_mp4_with_audible_speech(apresentacao_teste):
    result = apresentacao_teste
    assert result.tipo == "apresentacao" and result.ambiente == "teste"
    [video] = result.videos
    info = media.probe(video.path)
    assert info.video_codec == "h264" and info.audio_codec == "aac" and info.audio_rate == 48000
    assert (info.width, info.height) == (640, 360) == (video.largura, video.altura)
    assert info.fps == 30
    assert abs(info.duration - video.duracao_segundos) < 0.1
    assert 12 <= video.duracao_segundos <= SPECS["apresentacao"].max_seconds
    mean, peak = media.loudness(video.path)
    assert mean > -35 and peak > -10  # speech, not silence
    assert media.faststart(video.path)
    assert video.path.stat().st_size < 1_500_000
    assert result.cenas[0] == "abertura" and result.cenas[-1] == "encerramento"


def test_fala_and_subtitles_match(apresentacao_teste):
    result = apresentacao_teste
    fala = result.fala
    assert fala.texto.startswith("Conheça Garrafa Térmica Aço Inox Aurora 750 ml, da Casa Boa.")
    assert fala.voz == "espeak-ng:pt-br"
    video_seconds = result.videos[0].duracao_segundos
    assert 5 < fala.duracao_segundos < video_seconds
    assert fala.as_dict().keys() == {"texto", "voz", "duracaoSegundos"}
    cues = _vtt_cues(result.legenda)
    assert cues, "the WebVTT file has cues"
    starts = [start for start, _, _ in cues]
    assert starts == sorted(starts) and cues[-1][1] <= video_seconds
    assert all(end > start for start, end, _ in cues)
    assert " ".join(text for _, _, text in cues).split() == fala.texto.split()


def test_automatico_burns_captions_when_they_fit(apresentacao_teste):
    assert apresentacao_teste.avatar == "legenda" and apresentacao_teste.legendas_embutidas
    frames = [(640, 360)]
    normal = [Cue(0, 1, "Garantia: 12 meses contra defeitos de fabricação.")]
    assert resolve_avatar("automatico", normal, frames) == "legenda"
    unbreakable = [Cue(0, 1, "X" * 400)]  # cannot fit two caption lines
    assert resolve_avatar("automatico", unbreakable, frames) == "narrador"
    assert resolve_avatar("narradora", unbreakable, frames) == "narradora"


@pytest.mark.slow
def test_watermark_on_teste_frames_and_not_on_producao(fotos, tmp_path):
    teste = render_video(sparse_ficha(), fotos[:1], "apresentacao", "narrador", "teste", tmp_path / "t")
    producao = render_video(sparse_ficha(), fotos[:1], "apresentacao", "narrador", "producao", tmp_path / "p")
    [vt], [vp] = teste.videos, producao.videos
    assert (vp.largura, vp.altura) == (1280, 720) == (media.probe(vp.path).width, media.probe(vp.path).height)
    assert abs(vt.duracao_segundos - vp.duracao_segundos) < 0.05
    for t in (1.5, vt.duracao_segundos - 1.5):
        frame_t = Image.open(media.frame_at(vt.path, t, tmp_path / "ft.png"))
        frame_p = Image.open(media.frame_at(vp.path, t, tmp_path / "fp.png"))
        inside, outside = watermark_contrast(frame_t, frame_p)
        assert inside > 20 and outside < 8, (t, inside, outside)


def test_cinepremium_needs_more_photos(fotos, tmp_path):
    with pytest.raises(VideoError) as caught:
        render_video(rich_ficha(), fotos[: CINEPREMIUM_MIN_FOTOS - 1], "cinepremium", "automatico", "teste", tmp_path)
    assert caught.value.codigo == "CINEPREMIUM_FOTOS_INSUFICIENTES"
    assert not list(tmp_path.glob("*.mp4"))
    with pytest.raises(ValueError):
        render_video(rich_ficha(), fotos, "trailer", "automatico", "teste", tmp_path)
    with pytest.raises(ValueError):
        render_video(rich_ficha(), fotos, "apresentacao", "holograma", "teste", tmp_path)


@pytest.mark.slow
def test_cinepremium_delivers_horizontal_and_vertical(fotos, tmp_path):
    result = render_video(sparse_ficha(), fotos[:5], "cinepremium", "narradora", "teste", tmp_path)
    assert result.avatar == "narradora" and not result.legendas_embutidas
    assert result.fala.voz == "espeak-ng:pt-br+f3"
    assert result.cenas == ["abertura", "foto", "foto", "foto", "foto", "encerramento"]
    formats = {v.formato: v for v in result.videos}
    assert set(formats) == {"horizontal", "vertical"}
    for video, size in ((formats["horizontal"], (960, 540)), (formats["vertical"], (540, 960))):
        info = media.probe(video.path)
        assert (info.width, info.height) == size
        assert info.video_codec == "h264" and info.audio_codec == "aac"
        assert abs(info.duration - result.videos[0].duracao_segundos) < 0.1
        assert media.loudness(video.path)[0] > -45
        assert media.faststart(video.path)


def _fake_clips(scenes, seconds):
    for scene in scenes:
        scene.clips = [Clip(line, Path("/dev/null"), seconds) for line in scene.lines]
    return scenes


def test_timeline_gives_each_scene_its_sentences_and_whole_frames(fotos):
    scenes = _fake_clips(storyboard.apresentacao(rich_ficha(), fotos), 2.0)
    spec = SPECS["apresentacao"]
    total, placements = plan_timeline(scenes, spec)
    for scene in scenes:
        assert abs(scene.duration * spec.fps - round(scene.duration * spec.fps)) < 1e-6
    for at, clip in placements:
        owner = next(s for s in scenes if clip in s.clips)
        assert owner.start <= at and at + clip.seconds <= owner.start + owner.duration
    assert total == pytest.approx(scenes[-1].start + scenes[-1].duration)


def test_long_narration_drops_the_least_important_scenes(fotos):
    scenes = _fake_clips(storyboard.apresentacao(rich_ficha(), fotos), 4.0)
    kept = fit_length(scenes, SPECS["apresentacao"])
    assert plan_timeline(kept, SPECS["apresentacao"])[0] <= SPECS["apresentacao"].max_seconds
    assert kept[0].kind == "abertura" and kept[-1].kind == "encerramento"
    dropped = [s for s in scenes if s not in kept]
    assert dropped and min(s.priority for s in dropped) > max(s.priority for s in kept)


def test_spoken_form_and_caption_chunks():
    assert speech.spoken("750 ml, 27 cm e 1 kg; 12 horas") == "750 mililitros, 27 centímetros e 1 quilo; 12 horas"
    assert speech.spoken("7,5 cm") == "7,5 centímetros"
    long = "Garrafa térmica de parede dupla a vácuo que mantém bebidas quentes por 12 horas e geladas. " * 3
    parts = chunks(long)
    assert all(len(p) <= MAX_CUE_CHARS for p in parts)
    assert " ".join(parts).split() == long.split()


def test_narration_gate_rejects_silence(tmp_path):
    silent = tmp_path / "silencio.wav"
    with wave.open(str(silent), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(22050)
        w.writeframes(b"\0\0" * 22050)
    assert not narration_ok([Clip("Olá, mundo.", silent, 1.0)])
    spoken = speech.synthesise("Olá, mundo.", "pt-br", tmp_path / "ola.wav")
    assert narration_ok([spoken])


# -- the product is never cropped ------------------------------------------------------------------

MOTIONS = ("zoom_in", "pan_right", "zoom_out", "pan_left")


@pytest.mark.parametrize("nome", ["bagunca", "madeira", "inseparavel"])
@pytest.mark.parametrize("mascara", ["do servico", "verdadeira"])
def test_no_frame_crops_the_product_of_a_busy_photo(nome, mascara, tmp_path, verdade):
    """Every photo scene of both video types, in every format, with every motion: the true
    product stays inside the view in every frame. With the service's own mask a photo it cannot
    split is shown whole; with the true one a scene is framed on the product."""
    c = cenario(nome, 800)
    if mascara == "verdadeira":
        verdade(c)
    foto = foto_de(c, tmp_path)
    for tipo, spec in SPECS.items():
        frames = [size for formats in spec.formats.values() for _, size in formats]
        ctx = Context(sparse_ficha(), [foto], max_side=round(max(max(frames)) * spec.supersample))
        for frame in frames:
            for titled in (True, False):
                slide = photo_slide(ctx, foto, frame, spec.supersample, titled)
                x0, y0, x1, y1 = caixa_verdadeira(c, ctx.photo(foto), slide.placement)
                width, height = slide.image.size
                produto = (x0 / width, y0 / height, x1 / width, y1 / height)
                for motion in MOTIONS:
                    moving = camera(motion, slide.keep, spec.zoom)
                    for t in np.linspace(0, 1, 21):
                        v0, w0, v1, w1 = moving.window(t)
                        assert min(v0, w0) >= 0 and max(v1, w1) <= 1 + 1e-9  # inside the still
                        slack = 1 / min(frame)  # a pixel of the frame
                        assert (
                            v0 - slack <= produto[0]
                            and w0 - slack <= produto[1]
                            and produto[2] <= v1 + slack
                            and produto[3] <= w1 + slack
                        ), (tipo, frame, titled, motion, t, produto, (v0, w0, v1, w1))


def test_a_scene_covers_the_frame_around_its_product_and_a_tall_one_is_cut_out(tmp_path, verdade):
    madeira, bagunca = cenario("madeira", 800), cenario("bagunca", 800)
    for c, scene in ((madeira, True), (bagunca, False)):
        verdade(c)
        foto = foto_de(c, tmp_path)
        ctx = Context(sparse_ficha(), [foto], max_side=1920)
        slide = photo_slide(ctx, foto, (960, 540), 2.0, titled=False)
        corner = np.asarray(slide.image)[4, 4]
        # the mug's wall fills the frame; the tall bottle cannot be shown whole that way, and is
        # cut out onto the studio backdrop instead
        assert (tuple(corner) == style.BACKDROP_TOP) != scene, (c.nome, corner)
        product = slide.placement.map(ctx.photo(foto).caixa)
        width, height = slide.image.size
        assert (
            0 <= product.x0 < product.x1 <= width and 0 <= product.y0 < product.y1 <= height * 0.8
        )  # above the captions


@pytest.mark.parametrize("motion", MOTIONS)
def test_ffmpeg_moves_the_camera_as_planned(motion, tmp_path):
    """The zoompan filter shows what Camera.window says: a marker drawn where the product is
    lands where the plan puts it, whole, in the first and last frames."""
    slide_size, frame = (640, 360), (320, 180)
    keep = (0.55, 0.2, 0.85, 0.7)
    still = Image.new("RGB", slide_size, (255, 255, 255))
    box = [round(keep[0] * 640), round(keep[1] * 360), round(keep[2] * 640) - 1, round(keep[3] * 360) - 1]
    ImageDraw.Draw(still).rectangle(box, fill=(220, 20, 20))
    still.save(tmp_path / "still.png")
    moving = camera(motion, keep, 0.12)
    frames = 12
    media.run(
        [
            "-i",
            str(tmp_path / "still.png"),
            "-vf",
            moving.zoompan(frames, frame, 30),
            "-frames:v",
            str(frames),
            str(tmp_path / "f%02d.png"),
        ]
    )
    for number, t in ((1, 0.0), (frames, 1.0)):
        pixels = np.asarray(Image.open(tmp_path / f"f{number:02d}.png").convert("RGB")).astype(int)
        ys, xs = np.nonzero((pixels[..., 0] > 150) & (pixels[..., 1] < 100))
        v0, w0, v1, w1 = moving.window(t)
        expected = [
            (keep[0] - v0) / (v1 - v0) * frame[0],
            (keep[1] - w0) / (w1 - w0) * frame[1],
            (keep[2] - v0) / (v1 - v0) * frame[0],
            (keep[3] - w0) / (w1 - w0) * frame[1],
        ]
        found = [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]
        assert np.abs(np.subtract(found, expected)).max() <= 3, (motion, t, found, expected)
        assert xs.min() > 0 and ys.min() > 0 and xs.max() < frame[0] - 1 and ys.max() < frame[1] - 1
