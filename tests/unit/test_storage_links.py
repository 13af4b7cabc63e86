"""Signed media links: valid for at least the TTL, identical within a minute, tamper-proof."""

from pathlib import Path

from vitrine.infra.storage import EXPIRY_STEP, MediaStorage


def _storage(tmp_path: Path) -> MediaStorage:
    return MediaStorage(tmp_path, b"k" * 32, "https://vitrine.test")


def test_a_link_lives_at_least_its_ttl_and_at_most_one_step_more(tmp_path):
    storage = _storage(tmp_path)
    for now in (1_000_000.0, 1_000_059.9, 1_000_060.0, 1_000_061.5):
        _, expira = storage.signed_url("a/b.jpg", ttl=3600, now=now)
        assert now + 3600 <= expira.timestamp() < now + 3600 + EXPIRY_STEP
        assert expira.timestamp() % EXPIRY_STEP == 0


def test_reads_in_the_same_minute_get_the_same_link_and_the_next_minute_a_new_one(tmp_path):
    storage = _storage(tmp_path)
    first, _ = storage.signed_url("a/b.jpg", now=1_000_021.0)
    again, _ = storage.signed_url("a/b.jpg", now=1_000_079.0)
    later, _ = storage.signed_url("a/b.jpg", now=1_000_081.0)
    assert first == again and later != first
    assert storage.signed_url("a/c.jpg", now=1_000_021.0)[0] != first


def test_verification_refuses_a_changed_key_expiry_or_signature(tmp_path):
    storage = _storage(tmp_path)
    url, _ = storage.signed_url("a/b.jpg")
    exp = url.split("exp=")[1].split("&")[0]
    sig = url.split("sig=")[1]
    assert storage.verify("a/b.jpg", exp, sig)
    assert not storage.verify("a/c.jpg", exp, sig)
    assert not storage.verify("a/b.jpg", str(int(exp) + EXPIRY_STEP), sig)
    assert not storage.verify("a/b.jpg", exp, "0" + sig[1:] if sig[0] != "0" else "1" + sig[1:])
    assert not storage.verify("a/b.jpg", "12", sig)  # long expired
