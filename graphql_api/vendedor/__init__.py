"""Sellers: people with their own sign-in who authorise integrators' apps on their store."""
