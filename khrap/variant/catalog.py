"""Built-in variants and loading any variant by name or path, fully checked."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from khrap.variant.checks import Fields, semantic_issues
from khrap.variant.loader import Trust, VariantError, load_data, locate_error, validate
from khrap.variant.schema import Variant

_PACKAGE = Path(__file__).resolve().parent.parent


def variants_dir() -> Path:
    """Where the built-in variant files are: inside an installed wheel, or in the source tree."""
    for candidate in (_PACKAGE / "_variants", _PACKAGE.parent / "variants"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the built-in variants directory is missing from this installation")


def builtin_names() -> list[str]:
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def load_variant(
    ref: str | Path, *, trust: Trust | None = None, text: str | None = None, named_in: str | Path | None = None
) -> Variant:
    """A variant by built-in name or by path, after extends and every check; VariantError otherwise.

    ``trust``, ``text`` and ``named_in`` are those of :func:`khrap.variant.loader.load_data`: an
    upload is ``load_variant("upload.yaml", text=TEXT, trust=UPLOAD)`` (it may extend only built-ins).
    """
    data, origins = load_data(ref, variants_dir(), trust=trust, text=text, named_in=named_in)
    try:
        variant = validate(Variant, data, origins)
        issues = semantic_issues(variant)
        if issues:
            loc, message = issues[0]
            raise locate_error(origins, origins.latest(loc) if isinstance(loc, Fields) else loc, message)
    except VariantError as err:
        raise _from_child(err, ref) from None
    return variant


def _from_child(err: VariantError, ref: str | Path) -> VariantError:
    """A mistake found in an inherited value also names the file that was being loaded."""
    try:
        other = err.path is not None and Path(err.path).resolve() != Path(ref).resolve() and Path(ref).suffix
    except (OSError, ValueError):  # a path that cannot be resolved (a NUL, a loop of links) is not a parent
        other = False
    if other:
        return VariantError(f"{err.message} (inherited by {ref})", err.path, err.line, err.col)
    return err


@lru_cache(maxsize=32)
def builtin(name: str) -> Variant:
    """A built-in variant, cached (variants are not changed by the kernel)."""
    return load_variant(name)


__all__ = ["VariantError", "builtin", "builtin_names", "load_variant", "variants_dir"]
