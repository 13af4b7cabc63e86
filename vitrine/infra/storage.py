"""Media storage: files under the media directory, handed out through HMAC-signed links that
expire. Links carry the storage key, the expiry (unix seconds) and the signature."""

from __future__ import annotations

import hmac
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

DEFAULT_LINK_TTL = 3600  # seconds (docs/midia.md)


class MediaStorage:
    def __init__(self, root: Path, signing_key: bytes, base_url: str) -> None:
        self.root = root
        self._key = signing_key
        self.base_url = base_url

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

    def _signature(self, key: str, expires: int) -> str:
        return hmac.digest(self._key, f"{key}\n{expires}".encode(), "sha256").hex()

    def signed_url(self, key: str, ttl: int = DEFAULT_LINK_TTL, now: float | None = None) -> tuple[str, datetime]:
        expires = int((now or time.time()) + ttl)
        url = f"{self.base_url}/midia/{quote(key)}?exp={expires}&sig={self._signature(key, expires)}"
        return url, datetime.fromtimestamp(expires, tz=timezone.utc)

    def verify(self, key: str, expires: str, signature: str) -> bool:
        if not expires.isdigit() or int(expires) < time.time():
            return False
        return hmac.compare_digest(self._signature(key, int(expires)), signature)
