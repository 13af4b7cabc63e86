"""Text that came from an HTTP header, made storable."""


def texto_de_cabecalho(valor: str) -> str:
    """A request header as text any database and JSON encoder take: bytes that were not UTF-8,
    which the HTTP parser hands over as lone surrogates, become U+FFFD. Such a header once made
    every later call-log batch fail (the call log stopped for everyone)."""
    if valor.isascii():
        return valor
    try:
        bruto = valor.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate the parser did not make: kept as its own bytes
        bruto = valor.encode("utf-8", "surrogatepass")
    return bruto.decode("utf-8", "replace")
