"""The registry's exceptions: everything it refuses is a :class:`RegistryError` (malformed input: ``ValueError``)."""

from __future__ import annotations

__all__ = ["EnvMismatchError", "IntegrityError", "RefError", "RegistryError"]


class RegistryError(Exception):
    """Anything the registry refuses or cannot do."""


class RefError(RegistryError, LookupError):
    """A ref that names no checkpoint (or more than one)."""


class IntegrityError(RegistryError):
    """A file whose hash or content disagrees with the index, manifest or spec: refused, untouched."""


class EnvMismatchError(RegistryError, ValueError):
    """A checkpoint trained for another env, or another observation/action layout."""
