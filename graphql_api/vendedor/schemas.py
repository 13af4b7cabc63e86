"""Input of the seller operations: the sign-up form, with the same name, e-mail and password
rules as the portal's people (graphql_api/usuario/schemas.py)."""

from graphql_api.usuario.schemas import PessoaComSenha


class CadastroVendedor(PessoaComSenha):
    """Seller sign-up: the store's name (`nome`, one line, 1 to 200 characters; the accounts an
    integrator gets by the seller's consent take it), the e-mail to sign in with and a password."""
