"""The ffmpeg binary shipped by imageio-ffmpeg, and what we read back from it. There is no
ffprobe in that package: stream facts come from `ffmpeg -i` and loudness from volumedetect."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import imageio_ffmpeg

from graphql_api.geracao.render.types import OutputError


class FfmpegError(OutputError):
    pass


@lru_cache(maxsize=1)
def ffmpeg_exe() -> str:
    return imageio_ffmpeg.get_ffmpeg_exe()


def run(args: list[str], timeout: float = 600) -> str:
    """Run ffmpeg quietly; returns its stderr (where it reports), raises on failure."""
    command = [ffmpeg_exe(), "-hide_banner", "-nostdin", *args]
    result = subprocess.run(command, capture_output=True, timeout=timeout)
    stderr = result.stderr.decode(errors="replace")
    if result.returncode != 0:
        raise FfmpegError(f"ffmpeg exited {result.returncode}: {stderr[-2000:]}")
    return stderr


@dataclass(frozen=True, slots=True)
class MediaInfo:
    duration: float | None
    video_codec: str | None
    width: int | None
    height: int | None
    fps: float | None
    audio_codec: str | None
    audio_rate: int | None


_DURATION = re.compile(r"Duration: (\d+):(\d+):(\d+(?:\.\d+)?)")
_VIDEO = re.compile(r"Stream #\S+.*?: Video: (\w+).*?, (\d{2,5})x(\d{2,5})")
_FPS = re.compile(r"(\d+(?:\.\d+)?) fps")
_AUDIO = re.compile(r"Stream #\S+.*?: Audio: (\w+).*?, (\d+) Hz")


def probe(path: Path) -> MediaInfo:
    """Container and stream facts from `ffmpeg -i` (which exits 1 for want of an output)."""
    result = subprocess.run(
        [ffmpeg_exe(), "-hide_banner", "-nostdin", "-i", str(path)], capture_output=True, timeout=60
    )
    text = result.stderr.decode(errors="replace")
    if "Invalid data" in text or "No such file" in text:
        raise FfmpegError(text[-500:])
    duration = video = audio = fps = None
    if match := _DURATION.search(text):
        hours, minutes, seconds = match.groups()
        duration = int(hours) * 3600 + int(minutes) * 60 + float(seconds)
    for line in text.splitlines():
        if video is None and (video := _VIDEO.search(line)):
            fps = float(m.group(1)) if (m := _FPS.search(line)) else None
        if audio is None:
            audio = _AUDIO.search(line)
    return MediaInfo(
        duration=duration,
        video_codec=video.group(1) if video else None,
        width=int(video.group(2)) if video else None,
        height=int(video.group(3)) if video else None,
        fps=fps,
        audio_codec=audio.group(1) if audio else None,
        audio_rate=int(audio.group(2)) if audio else None,
    )


def loudness(path: Path) -> tuple[float, float]:
    """(mean, max) volume in dB of the audio stream, from ffmpeg's volumedetect."""
    text = run(["-i", str(path), "-map", "0:a:0", "-af", "volumedetect", "-f", "null", "-"])
    mean = re.search(r"mean_volume: (-?[\d.]+|-inf) dB", text)
    peak = re.search(r"max_volume: (-?[\d.]+|-inf) dB", text)
    if not mean or not peak:
        raise FfmpegError("volumedetect reported nothing: no audio stream?")
    return float(mean.group(1)), float(peak.group(1))


def frame_at(path: Path, seconds: float, out: Path) -> Path:
    """One decoded frame as PNG (checks of the picture: watermark, captions)."""
    run(["-ss", f"{seconds:.3f}", "-i", str(path), "-frames:v", "1", "-y", str(out)])
    return out


def faststart(path: Path) -> bool:
    """True when the index (moov) comes before the media data (mdat): playable while loading."""
    head = path.read_bytes()[: 1 << 20]
    moov, mdat = head.find(b"moov"), head.find(b"mdat")
    return moov != -1 and (mdat == -1 or moov < mdat)
