"""Placeholder of the `vitrine-cli` command (listen/trigger come in their own change)."""

import sys


def main() -> None:
    print("uso: vitrine-cli <comando> (comandos ainda não instalados nesta versão)", file=sys.stderr)
    sys.exit(2)
