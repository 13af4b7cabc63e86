"""Cliente Python da API da Vitrine."""
