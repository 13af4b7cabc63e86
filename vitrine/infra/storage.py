"""Media storage: files under the media directory, handed out through HMAC-signed links that
expire. Links carry the storage key, the expiry (unix seconds) and the signature.

Expiries are rounded up to the next whole minute: every read still gets a link valid for at
least the TTL, and reads within the same minute get the very same link, so browsers and caches
keep the file, a poller's responses stay byte-identical, and the signature is computed once."""

from __future__ import annotations

import hmac
import os
import time
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

DEFAULT_LINK_TTL = 3600  # seconds (docs/midia.md)
EXPIRY_STEP = 60  # seconds: expiries are rounded up to this step


class MediaStorage:
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
        if not expires.isdigit() or int(expires) < time.time():
            return False
        # Not through the cache: values from the outside never fill it.
        return hmac.compare_digest(self._sign(key, int(expires)), signature)
