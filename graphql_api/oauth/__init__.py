"""OAuth 2.0: integrators' apps, sellers' authorisations, codes and tokens (docs/oauth.md)."""
