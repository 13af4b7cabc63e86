"""Media storage, behind one port with two adapters, chosen by VITRINE_STORAGE_URL:

- `MediaStorage`: files under the media directory (the default), handed out through HMAC-signed
  links that expire (/midia/<key>?exp=&sig=, served by vitrine/media_routes.py);
- `S3MediaStorage`: an S3-compatible bucket (`s3://bucket/prefix`: AWS, MinIO, any S3 service),
  handed out through presigned GET links that go straight to the bucket.

The domain uses the async port only: `put` (bytes), `has`, `get` (bytes), `local_file` (a local
copy to hand to Pillow or ffmpeg), `work_dir` + `publish` (renderers write files into a local
directory, then publish it), `remove`, `signed_url`. Links carry the storage key, the expiry (unix
seconds) and the signature.

Expiries are rounded up to the next whole minute: every read still gets a link valid for at
least the TTL, and reads within the same minute get the very same link, so browsers and caches
keep the file, a poller's responses stay byte-identical, and the signature is computed once."""

from __future__ import annotations

import asyncio
import hmac
import logging
import mimetypes
import os
import time
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

DEFAULT_LINK_TTL = 3600  # seconds (docs/midia.md)
EXPIRY_STEP = 60  # seconds: expiries are rounded up to this step


class MediaStorage:
    """Files under `root`: every local path is the object itself, so publishing costs nothing."""

    media_origin = ""  # links are the service's own (/midia)

    def __init__(self, root: Path, signing_key: bytes, base_url: str) -> None:
        self.root = root
        self._key = signing_key
        self.base_url = base_url
        self._link = lru_cache(maxsize=4096)(self._build_link)

    def path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if self.root.resolve() not in path.parents:
            raise ValueError(f"storage key escapes the media root: {key}")
        return path

    def save(self, key: str, data: bytes) -> None:
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)  # readers never see a half-written file

    def exists(self, key: str) -> bool:
        return self.path(key).is_file()

    # -- the async port (the same on every adapter) ---------------------------------------------

    async def put(self, key: str, data: bytes) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.save, key, data)

    async def has(self, key: str) -> bool:
        return await asyncio.get_running_loop().run_in_executor(None, self.exists, key)

    async def get(self, key: str) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(None, self.path(key).read_bytes)

    async def local_file(self, key: str) -> Path:
        return self.path(key)

    def work_dir(self, prefix: str) -> Path:
        return self.path(prefix)

    async def publish(self, prefix: str) -> list[str]:
        return []  # written in place

    async def remove(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)

    async def close(self) -> None:
        return None

    def _sign(self, key: str, expires: int) -> str:
        return hmac.digest(self._key, f"{key}\n{expires}".encode(), "sha256").hex()

    def _build_link(self, key: str, expires: int) -> tuple[str, datetime]:
        url = f"{self.base_url}/midia/{quote(key)}?exp={expires}&sig={self._sign(key, expires)}"
        return url, datetime.fromtimestamp(expires, tz=UTC)

    def signed_url(self, key: str, ttl: int = DEFAULT_LINK_TTL, now: float | None = None) -> tuple[str, datetime]:
        """A link valid for at least `ttl` seconds, and its expiry."""
        expires = -(-int((now or time.time()) + ttl) // EXPIRY_STEP) * EXPIRY_STEP  # ceiling
        return self._link(key, expires)

    def verify(self, key: str, expires: str, signature: str) -> bool:
        # Our expiries and signatures are ASCII; compare_digest refuses other text with an error.
        if not (expires.isascii() and expires.isdigit() and signature.isascii()) or int(expires) < time.time():
            return False
        # Not through the cache: values from the outside never fill it.
        return hmac.compare_digest(self._sign(key, int(expires)), signature)


PART_SIZE = 8 * 1024 * 1024  # bytes per part of a multipart upload, and the most held in memory
CHUNK = 256 * 1024  # bytes per read of a download

log = logging.getLogger(__name__)


class S3MediaStorage:
    """An S3-compatible bucket through aiobotocore (async, on botocore: every S3 service botocore
    speaks to, presigning included). Objects live at `prefix/key`. A local directory (`cache`)
    holds what this process renders before publishing it, and copies of objects it read as files
    (photos for the renderers): a cache, never the record; removing it loses nothing.

    Uploads of files go in parts of PART_SIZE (S3's multipart upload), downloads in chunks of
    CHUNK straight to disk: a video is never whole in memory."""

    def __init__(
        self,
        url: str,
        cache: Path,
        *,
        endpoint_url: str | None = None,
        region: str | None = None,
        access_key_id: str | None = None,
        secret_access_key: str | None = None,
    ) -> None:
        import botocore.session
        from aiobotocore.session import get_session
        from botocore.config import Config

        parts = urlsplit(url)
        if parts.scheme != "s3" or not parts.netloc:
            raise ValueError(f"VITRINE_STORAGE_URL must look like s3://bucket/prefix, not {url!r}")
        self.bucket = parts.netloc
        self.prefix = parts.path.strip("/")
        self.cache = cache
        self._options: dict[str, Any] = {
            "endpoint_url": endpoint_url or None,
            "region_name": region or "us-east-1",
            "aws_access_key_id": access_key_id or None,
            "aws_secret_access_key": secret_access_key or None,
            "config": Config(signature_version="s3v4", s3={"addressing_style": "path"}),
        }
        self._session = get_session()
        self._client: Any = None
        self._client_context: Any = None
        self._client_lock = asyncio.Lock()
        # Presigning is local computation: a plain botocore client does it without the event loop.
        self._signer = botocore.session.get_session().create_client("s3", **self._options)
        self._link = lru_cache(maxsize=4096)(self._build_link)
        # Where links point: pages that show media allow it (the portal's Content-Security-Policy).
        sample = urlsplit(self._signer.generate_presigned_url("get_object", Params={"Bucket": self.bucket, "Key": "x"}))
        self.media_origin = f"{sample.scheme}://{sample.netloc}"

    def object_key(self, key: str) -> str:
        if not key or key.startswith("/") or ".." in key.split("/"):
            raise ValueError(f"storage key escapes the bucket prefix: {key}")
        return f"{self.prefix}/{key}" if self.prefix else key

    def _cache_path(self, key: str) -> Path:
        self.object_key(key)  # the same rule for the local copy
        return self.cache / key

    async def _s3(self) -> Any:
        if self._client is None:
            async with self._client_lock:
                if self._client is None:
                    self._client_context = self._session.create_client("s3", **self._options)
                    self._client = await self._client_context.__aenter__()
        return self._client

    async def close(self) -> None:
        if self._client_context is not None:
            await self._client_context.__aexit__(None, None, None)
            self._client = self._client_context = None

    async def put(self, key: str, data: bytes) -> None:
        s3 = await self._s3()
        await s3.put_object(Bucket=self.bucket, Key=self.object_key(key), Body=data, ContentType=_content_type(key))

    async def put_file(self, key: str, path: Path) -> None:
        """One file, streamed: a single PUT up to PART_SIZE, parts of PART_SIZE beyond."""
        s3 = await self._s3()
        object_key = self.object_key(key)
        size = path.stat().st_size
        loop = asyncio.get_running_loop()
        if size <= PART_SIZE:
            body = await loop.run_in_executor(None, path.read_bytes)
            await s3.put_object(Bucket=self.bucket, Key=object_key, Body=body, ContentType=_content_type(key))
            return
        upload = await s3.create_multipart_upload(Bucket=self.bucket, Key=object_key, ContentType=_content_type(key))
        upload_id, parts = upload["UploadId"], []
        try:
            with path.open("rb") as file:
                number = 1
                while chunk := await loop.run_in_executor(None, file.read, PART_SIZE):
                    part = await s3.upload_part(
                        Bucket=self.bucket, Key=object_key, UploadId=upload_id, PartNumber=number, Body=chunk
                    )
                    parts.append({"ETag": part["ETag"], "PartNumber": number})
                    number += 1
            await s3.complete_multipart_upload(
                Bucket=self.bucket, Key=object_key, UploadId=upload_id, MultipartUpload={"Parts": parts}
            )
        except BaseException:
            await s3.abort_multipart_upload(Bucket=self.bucket, Key=object_key, UploadId=upload_id)
            raise

    async def has(self, key: str) -> bool:
        from botocore.exceptions import ClientError

        s3 = await self._s3()
        try:
            await s3.head_object(Bucket=self.bucket, Key=self.object_key(key))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return False
            raise
        return True

    async def _get_object(self, key: str) -> Any:
        """The object's response; a missing one raises FileNotFoundError, as a missing file does."""
        from botocore.exceptions import ClientError

        s3 = await self._s3()
        try:
            return await s3.get_object(Bucket=self.bucket, Key=self.object_key(key))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                raise FileNotFoundError(key) from None
            raise

    async def get(self, key: str) -> bytes:
        response = await self._get_object(key)
        async with response["Body"] as body:
            return await body.read()

    async def local_file(self, key: str) -> Path:
        """A local copy of the object (downloaded once, in chunks, to the cache)."""
        path = self._cache_path(key)
        if path.is_file():
            return path
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
        response = await self._get_object(key)
        loop = asyncio.get_running_loop()
        try:
            with tmp.open("wb") as file:
                async with response["Body"] as stream:
                    async for chunk in stream.content.iter_chunked(CHUNK):
                        await loop.run_in_executor(None, file.write, chunk)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return path

    def work_dir(self, prefix: str) -> Path:
        return self._cache_path(prefix)

    async def publish(self, prefix: str) -> list[str]:
        """Upload every file under work_dir(prefix); returns their keys."""
        root = self.work_dir(prefix)
        keys = []
        for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")):
            key = f"{prefix}/{path.relative_to(root).as_posix()}"
            await self.put_file(key, path)
            keys.append(key)
        return keys

    async def remove(self, key: str) -> None:
        s3 = await self._s3()
        await s3.delete_object(Bucket=self.bucket, Key=self.object_key(key))
        self._cache_path(key).unlink(missing_ok=True)

    def _build_link(self, key: str, expires: int) -> tuple[str, datetime]:
        seconds = max(1, expires - int(time.time()))
        url = self._signer.generate_presigned_url(
            "get_object", Params={"Bucket": self.bucket, "Key": self.object_key(key)}, ExpiresIn=seconds
        )
        return url, datetime.fromtimestamp(expires, tz=UTC)

    def signed_url(self, key: str, ttl: int = DEFAULT_LINK_TTL, now: float | None = None) -> tuple[str, datetime]:
        """A presigned GET valid until the next whole minute after `ttl` seconds. A link is made
        once per key and minute in this process (reads in that minute get the very same link)."""
        expires = -(-int((now or time.time()) + ttl) // EXPIRY_STEP) * EXPIRY_STEP  # ceiling
        return self._link(key, expires)


def _content_type(key: str) -> str:
    """What a browser is told a link holds (S3 answers with the type the object was stored with)."""
    return mimetypes.guess_type(key)[0] or ("text/vtt" if key.endswith(".vtt") else "application/octet-stream")


def media_storage(settings: Any) -> MediaStorage | S3MediaStorage:
    """The adapter VITRINE_STORAGE_URL names: s3://bucket/prefix, or files (empty, file://path)."""
    if settings.storage_url.startswith("s3://"):
        return S3MediaStorage(
            settings.storage_url,
            settings.data_dir / "media-cache",
            endpoint_url=settings.s3_endpoint_url,
            region=settings.s3_region,
            access_key_id=settings.s3_access_key_id,
            secret_access_key=settings.s3_secret_access_key,
        )
    return MediaStorage(settings.media_dir, settings.signing_key, settings.base_url)


Storage = MediaStorage | S3MediaStorage
