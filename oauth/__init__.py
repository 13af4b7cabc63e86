"""The OAuth door: /oauth/token, /oauth/revogar and the RFC 8414 metadata, outside /v1.
The consent page (/oauth/autorizar) is a page of the portal door."""
