"""``python -m bosweep.adapters``: runs one adapter on stdin and stdout, or checks one.

Exit status: 0 when the protocol's input ends (or ``check`` finds everything installed); 2 for a
line that breaks the protocol, an unknown name, or (``check``) a requirement that is not met,
with the pip line that meets it on stderr."""

import argparse
import sys
from typing import List, Optional

from . import ADAPTERS, botorch_peer, find, nevergrad_peer, optuna_peer
from .protocol import serve


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m bosweep.adapters", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)
    optuna = commands.add_parser("optuna", help="an Optuna sampler")
    optuna.add_argument("--sampler", choices=optuna_peer.SAMPLERS, default="tpe")
    nevergrad = commands.add_parser("nevergrad", help="a Nevergrad optimiser")
    nevergrad.add_argument("--optimizer", choices=sorted(nevergrad_peer.OPTIMIZERS), default="ngopt")
    nevergrad.add_argument(
        "--budget", type=int, default=None, help="the evaluations the optimiser plans for (default: the run's, from start)"
    )
    botorch = commands.add_parser("botorch", help="a BoTorch acquisition on a SingleTaskGP")
    botorch.add_argument("--acquisition", choices=botorch_peer.ACQUISITIONS, default="qlognei")
    check = commands.add_parser("check", help="whether an adapter's requirements are installed")
    check.add_argument("name", help=", ".join(a.name for a in ADAPTERS))
    return top


def check(name: str) -> int:
    try:
        adapter = find(name)
    except KeyError as error:
        print(f"bosweep.adapters check: {error.args[0]}", file=sys.stderr)
        return 2
    unmet = adapter.unmet()
    if not unmet:
        return 0
    print(
        f"bosweep.adapters: {adapter.name} needs {', '.join(unmet)}; install with\n"
        f"    {sys.executable} -m {adapter.pip_line()}",
        file=sys.stderr,
    )
    return 2


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "check":
        return check(args.name)
    if args.command == "optuna":
        name = f"optuna-{args.sampler}"
        peer = optuna_peer.factory(args.sampler)
    elif args.command == "nevergrad":
        name = f"nevergrad-{args.optimizer}"
        peer = nevergrad_peer.factory(args.optimizer, args.budget)
    else:
        name = f"botorch-{args.acquisition}"
        peer = botorch_peer.factory(args.acquisition)
    adapter = find(name)
    return serve(
        peer,
        adapter.batch_capable,
        name,
        several_objectives=adapter.several_objectives,
        constraints=adapter.constraints,
    )


if __name__ == "__main__":
    sys.exit(main())
