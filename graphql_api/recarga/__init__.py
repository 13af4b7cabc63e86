"""Single packages of credits and their purchases (recargas), paid through a payment provider."""
