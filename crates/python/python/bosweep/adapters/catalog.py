"""What each adapter is: its name in bosweep's algorithm registry, the command-line arguments of
``python -m bosweep.adapters`` that run it, the pip requirements it needs and whether it handles
pending points. Checking a requirement imports the library, never the adapter's own code."""

import importlib
import importlib.metadata
import re
import shlex
from dataclasses import dataclass
from typing import List, Optional, Tuple


@dataclass(frozen=True)
class Adapter:
    """One peer method behind the protocol, e.g. Optuna's TPE sampler (``optuna-tpe``)."""

    #: The registry name (``optuna-tpe``), which ``check`` takes.
    name: str
    #: The arguments after ``python -m bosweep.adapters`` (``("optuna", "--sampler", "tpe")``).
    arguments: Tuple[str, ...]
    #: pip requirement specifiers; each names a distribution that is also its import name.
    requirements: Tuple[str, ...]
    #: Whether it proposes points while others are pending (bosweep's ``batch_capable``).
    batch_capable: bool
    #: Whether it takes several objectives.
    several_objectives: bool = False
    #: Whether it takes black-box constraints (Optuna's ``constraints_func``).
    constraints: bool = False

    def pip_line(self) -> str:
        """The line that installs what the adapter needs."""
        return "pip install " + " ".join(shlex.quote(r) for r in self.requirements)

    def unmet(self) -> List[str]:
        """The requirements that are absent, too old, or fail to import, each with the reason."""
        return [f"{r}: {why}" for r in self.requirements for why in [_unmet(r)] if why]


_SPECIFIER = re.compile(r"^([A-Za-z0-9_.-]+)\s*(?:>=\s*([0-9][0-9.]*))?$")


def _unmet(requirement: str) -> Optional[str]:
    """Why ``requirement`` (``name`` or ``name>=version``) is not met here, or None."""
    match = _SPECIFIER.match(requirement)
    if match is None:
        raise ValueError(f"requirement {requirement!r} is not of the form name or name>=version")
    name, minimum = match.groups()
    try:
        installed = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"
    if minimum is not None and _release(installed) < _release(minimum):
        return f"version {installed} is installed"
    try:
        importlib.import_module(name)
    except Exception as error:  # any failure to import leaves the requirement unmet
        return f"does not import ({type(error).__name__}: {error})"
    return None


def _release(version: str) -> Tuple[int, ...]:
    """The leading numeric components of a version (``4.2.1rc1`` → ``(4, 2, 1)``)."""
    parts = []
    for part in version.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        parts.append(int(digits.group()))
        if digits.group() != part:
            break
    return tuple(parts)
