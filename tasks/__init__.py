"""Background work run by taskiq: every task takes ids, opens nothing itself and calls a domain
service. In the embedded default tasks run in the web process; with Redis, in `vitrine worker`."""
