"""The in-process cache of credentials (API keys and OAuth access tokens): a clear always wins."""

from vitrine.infra.cache import CredentialCache


def test_an_entry_read_before_a_clear_is_not_stored_after_it():
    cache: CredentialCache[str] = CredentialCache()
    epoch = cache.epoch  # a lookup starts reading the database
    cache.clear("chaves")  # a revocation commits and clears every process meanwhile
    cache.put("k", "read before the revocation", epoch)
    assert cache.get("k") is None
    cache.put("k", "read after it", cache.epoch)
    assert cache.get("k") == "read after it"


def test_entries_expire_and_the_cache_stays_bounded(monkeypatch):
    import vitrine.infra.cache as module

    now = [1000.0]
    monkeypatch.setattr(module.time, "monotonic", lambda: now[0])
    cache: CredentialCache[int] = CredentialCache(ttl_seconds=60, max_entries=2)
    cache.put("a", 1, cache.epoch)
    now[0] += 61
    assert cache.get("a") is None
    cache.put("b", 2, cache.epoch)
    cache.put("c", 3, cache.epoch)
    assert cache.get("b") is None and cache.get("c") == 3  # full: started over
