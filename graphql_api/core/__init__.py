"""Pieces every domain shares: ids, errors, the principal and the request context."""
