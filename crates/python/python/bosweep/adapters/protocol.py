"""bosweep's command-optimiser protocol (JSON lines; crates/algorithms/src/command/) around a
peer library: reads stdin line by line, answers ``ask`` and ``recommend`` with ``{"x": [...]}``
lines on stdout, flushed. A line that breaks the protocol is not skipped: :func:`serve` names
it on stderr and returns 2.

The peer is built at the first ``ask``, seeded from that ask's seed, and is then told the
points told before (the run's initial design). A point the peer asked is told back to the trial
it came from (matched by ``x``: JSON carries floats exactly); any other point is told as new.
``y`` is bosweep's, in the maximisation sense. ``recommend`` answers the best point told (the
centre of the box before any).

On a constrained problem ``start`` carries ``"constraints": k`` and each ``tell`` the k
constraint values as ``"constraints": [...]`` (feasible where every one is <= 0); a peer that
takes them is told ``Constrained(value, constraints)``, and its factory gets ``constraints=k``.
On a problem of several objectives ``start`` carries ``"objectives": m`` (and the
``"reference_point"`` where the problem declares one, in the maximisation sense) and each
``tell`` the m values as ``"objectives": [...]``, each maximised; the peer is then told that
list in place of ``y``.
"""

import json
import math
import sys
from typing import Any, Callable, List, NamedTuple, Optional, Protocol, Sequence, TextIO, Tuple, Union

Bounds = List[Tuple[float, float]]
Point = List[float]
class Constrained(NamedTuple):
    """A step's value with its constraint values (feasible where every one is <= 0), as a peer
    that takes constraints is told it."""

    value: Union[float, List[float]]
    constraints: List[float]


#: A step's value: ``y``, or the m objectives' values on a problem of several; with the
#: constraint values on a constrained problem.
Value = Union[float, List[float], Constrained]

#: numpy's generators, which the peers seed, take 32-bit seeds.
SEED_MODULUS = 2**32


class Peer(Protocol):
    """A peer library's optimiser, in bosweep's maximisation sense."""

    def ask(self) -> Tuple[Point, Any]:
        """The next point, and the handle to tell its value to."""

    def tell_asked(self, handle: Any, y: Value) -> None:
        """The value of the point asked with ``handle``."""

    def tell_new(self, x: Point, y: Value) -> None:
        """The value of a point the peer did not ask (the initial design)."""

    def hold_pending(self, x: Point) -> Any:
        """Takes ``x``, being evaluated elsewhere, as a point asked and not yet told (batch
        capable peers); returns its handle."""


#: Builds a peer on the box ``bounds`` seeded with ``seed`` (< 2**32) for a run of ``budget``
#: evaluations (``None`` where the run does not say) of ``objectives`` objectives (1 but for a
#: peer that takes several) with the problem's ``reference_point`` for the hypervolume (in the
#: maximisation sense; ``None`` where it declares none); a peer that takes constraints gets
#: ``constraints=k`` too, on a problem of k ≥ 1.
PeerFactory = Callable[[Bounds, int, Optional[int], int, Optional[List[float]]], Peer]


class ProtocolError(Exception):
    """A line that does not follow the protocol."""


class Session:
    """One run's conversation: the box, the peer once built, the points told and pending."""

    def __init__(
        self,
        factory: PeerFactory,
        batch_capable: bool,
        several_objectives: bool = False,
        constraints: bool = False,
    ):
        self.factory = factory
        self.batch_capable = batch_capable
        self.several_objectives = several_objectives
        self.takes_constraints = constraints
        self.constraints = 0
        self.bounds: Optional[Bounds] = None
        self.budget: Optional[int] = None
        self.objectives = 1
        self.reference_point: Optional[List[float]] = None
        self.peer: Optional[Peer] = None
        self.told_before_peer: List[Tuple[Point, Value]] = []
        self.outstanding: List[Tuple[Point, Any]] = []
        self.best: Optional[Tuple[Point, float]] = None

    def handle(self, message: Any) -> Optional[dict]:
        """The reply to one parsed line (None for ``start`` and ``tell``)."""
        if not isinstance(message, dict):
            raise ProtocolError("not a JSON object")
        op = message.get("op")
        if op == "start":
            return self.start(message)
        if self.bounds is None:
            raise ProtocolError(f'"op": {json.dumps(op)} before "start"')
        if op == "tell":
            return self.tell(message)
        if op == "ask":
            return self.ask(message)
        if op == "recommend":
            return {"x": self.best[0] if self.best else [(lo + hi) / 2 for lo, hi in self.bounds]}
        raise ProtocolError(f'unknown "op": {json.dumps(op)}')

    def start(self, message: dict) -> None:
        if self.bounds is not None:
            raise ProtocolError('a second "start"')
        bounds = message.get("bounds")
        if not (
            isinstance(bounds, list)
            and bounds
            and all(_is_numbers(b, 2) and b[0] <= b[1] for b in bounds)
            and message.get("dim") == len(bounds)
        ):
            raise ProtocolError('"start" needs "dim": d and "bounds": d pairs [lo, hi], lo ≤ hi')
        budget = message.get("budget")
        if budget is not None and not (
            isinstance(budget, int) and not isinstance(budget, bool) and budget >= 1
        ):
            raise ProtocolError('"start" has "budget" that is not an integer ≥ 1')
        objectives = message.get("objectives", 1)
        if not (isinstance(objectives, int) and not isinstance(objectives, bool) and objectives >= 1):
            raise ProtocolError('"start" has "objectives" that is not an integer ≥ 1')
        if objectives > 1 and not self.several_objectives:
            raise ProtocolError(f"the problem has {objectives} objectives; this adapter takes one")
        reference = message.get("reference_point")
        if reference is not None and not _is_numbers(reference, objectives):
            raise ProtocolError(f'"start" has "reference_point" that is not {objectives} finite numbers')
        constraints = message.get("constraints", 0)
        if not (isinstance(constraints, int) and not isinstance(constraints, bool) and constraints >= 0):
            raise ProtocolError('"start" has "constraints" that is not an integer ≥ 0')
        if constraints > 0 and not self.takes_constraints:
            raise ProtocolError(f"the problem has {constraints} constraints; this adapter takes none")
        self.constraints = constraints
        self.bounds = [(float(lo), float(hi)) for lo, hi in bounds]
        self.budget = budget
        self.objectives = objectives
        self.reference_point = [float(v) for v in reference] if reference is not None else None

    def tell(self, message: dict) -> None:
        x, y = self.point(message.get("x"), '"tell"'), message.get("y")
        if not _is_number(y):
            raise ProtocolError('"tell" needs a finite number "y"')
        y = float(y)
        if self.best is None or y > self.best[1]:
            self.best = (x, y)
        value: Value = y
        if self.objectives > 1:
            values = message.get("objectives")
            if not _is_numbers(values, self.objectives):
                raise ProtocolError(f'"tell" needs "objectives": {self.objectives} finite numbers')
            value = [float(v) for v in values]
        if self.constraints > 0:
            given = message.get("constraints")
            if not _is_numbers(given, self.constraints):
                raise ProtocolError(f'"tell" needs "constraints": {self.constraints} finite numbers')
            value = Constrained(value, [float(c) for c in given])
        if self.peer is None:
            self.told_before_peer.append((x, value))
            return
        asked = next((i for i, (p, _) in enumerate(self.outstanding) if p == x), None)
        if asked is None:
            self.peer.tell_new(x, value)
        else:
            self.peer.tell_asked(self.outstanding.pop(asked)[1], value)

    def ask(self, message: dict) -> dict:
        seed = message.get("seed")
        if not (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0):
            raise ProtocolError('"ask" needs an integer "seed" ≥ 0')
        if "allowed" in message:
            raise ProtocolError(
                "the problem restricts each step to a finite set; peers search the whole box"
            )
        pending = message.get("pending", [])
        if not isinstance(pending, list):
            raise ProtocolError('"pending" must be a list of points')
        pending = [self.point(p, '"pending"') for p in pending]
        if pending and not self.batch_capable:
            raise ProtocolError("points are pending, and this adapter is not batch capable")
        if self.peer is None:
            arguments = (self.bounds, seed % SEED_MODULUS, self.budget, self.objectives, self.reference_point)
            self.peer = (
                self.factory(*arguments, constraints=self.constraints)
                if self.constraints > 0
                else self.factory(*arguments)
            )
            for x, y in self.told_before_peer:
                self.peer.tell_new(x, y)
            self.told_before_peer.clear()
        held = [p for p, _ in self.outstanding]
        for x in pending:
            if x in held:
                held.remove(x)
            else:
                self.outstanding.append((x, self.peer.hold_pending(x)))
        x, handle = self.peer.ask()
        x = [min(max(float(v), lo), hi) for v, (lo, hi) in zip(x, self.bounds)]
        self.outstanding.append((x, handle))
        return {"x": x}

    def point(self, x: Any, where: str) -> Point:
        if not _is_numbers(x, len(self.bounds)):
            raise ProtocolError(f'{where} needs a point of {len(self.bounds)} finite numbers')
        return [float(v) for v in x]


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _is_numbers(xs: Any, n: int) -> bool:
    return isinstance(xs, list) and len(xs) == n and all(_is_number(v) for v in xs)


def serve(
    factory: PeerFactory,
    batch_capable: bool,
    name: str,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    stderr: TextIO = sys.stderr,
    several_objectives: bool = False,
    constraints: bool = False,
) -> int:
    """Speaks the protocol until ``stdin`` ends (0) or a line breaks it (2, named on stderr)."""
    session = Session(factory, batch_capable, several_objectives, constraints)
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            try:
                message = json.loads(line)
            except json.JSONDecodeError as error:
                raise ProtocolError(f"not JSON ({error})") from None
            reply = session.handle(message)
        except ProtocolError as error:
            print(f"bosweep.adapters {name}: line {number} ({_excerpt(line)}): {error}", file=stderr)
            return 2
        if reply is not None:
            stdout.write(json.dumps(reply) + "\n")
            stdout.flush()
    return 0


def _excerpt(line: str, limit: int = 200) -> str:
    line = line.strip()
    return line if len(line) <= limit else line[:limit] + "…"
